import { type Browser } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { BotControl } from '../../src/runtime/operations/control/botControl.js';
import { startControlServer, type ControlServer } from '../../src/runtime/operations/control/controlServer.js';
import { BotMetrics } from '../../src/runtime/operations/metrics/botMetrics.js';
import { launchChromium, WITHOUT_LOCAL_NETWORK_CHECKS } from './support/chromium.js';

/** Debian's chromium package (.ci/run installs it when missing). */

/**
 * What a hostile page tries once its name points at 127.0.0.1: read the status, the metrics and
 * the event stream of the bot's control server from its own origin (same origin, so CORS does not
 * stop it; only the server can). Each result is what the page could read.
 */
const ATTACK_PAGE = `<!doctype html><title>a page on another site</title><script>
window.results = (async () => {
  const read = async (path) => {
    try {
      const response = await fetch(path);
      return { status: response.status, body: await response.text() };
    } catch (error) {
      return { status: 0, body: String(error) };
    }
  };
  const events = await new Promise((resolve) => {
    const source = new EventSource('/api/events');
    const timer = setTimeout(() => { source.close(); resolve('nothing'); }, 3000);
    source.addEventListener('status', (event) => { clearTimeout(timer); source.close(); resolve(event.data); });
    source.onerror = () => { clearTimeout(timer); source.close(); resolve('error'); };
  });
  return { status: await read('/api/status'), metrics: await read('/metrics'), events };
})();
</script>`;

interface PageResults {
  readonly status: { readonly status: number; readonly body: string };
  readonly metrics: { readonly status: number; readonly body: string };
  readonly events: string;
}

describe('the control server under DNS rebinding, in headless Chromium', () => {
  let server: ControlServer | undefined;
  let browser: Browser | undefined;
  afterEach(async () => {
    await browser?.close();
    await server?.close();
  });

  it('gives a page of another site no status, metrics or events; the same page under 127.0.0.1 reads them', async () => {
    server = await startControlServer({
      host: '127.0.0.1',
      port: 0,
      control: new BotControl(new BotMetrics()),
      token: undefined,
      tokenSource: 'environment variable PERPBOT_CONTROL_TOKEN',
      log: { info: () => undefined, warn: () => undefined },
      pushEveryMs: 100,
    });
    const port = new URL(server.url).port;
    // The rebinding: the attacker's name now resolves to this machine. Chromium's own local-network
    // checks are off: other browsers (and older Chromium) have none, and the server must not need them.
    browser = await launchChromium([
      '--host-resolver-rules=MAP rebind.evil.test 127.0.0.1',
      WITHOUT_LOCAL_NETWORK_CHECKS,
    ]);
    const readAs = async (origin: string): Promise<PageResults> => {
      const page = await browser!.newPage();
      // The attacker's page itself, as its server sent it before the name was rebound.
      await page.route(`${origin}/attack.html`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: ATTACK_PAGE }),
      );
      await page.goto(`${origin}/attack.html`);
      const results = await page.evaluate<PageResults>('window.results');
      await page.close();
      return results;
    };

    const rebound = await readAs(`http://rebind.evil.test:${port}`);
    expect(rebound.status.status, rebound.status.body).toBe(421);
    expect(rebound.metrics.status).toBe(421);
    expect(rebound.status.body).not.toContain('phase');
    expect(rebound.metrics.body).not.toContain('perpbot_');
    expect(['error', 'nothing']).toContain(rebound.events);

    // The same page at the bot's own address reads everything: the refusal above is the Host check's.
    const local = await readAs(`http://127.0.0.1:${port}`);
    expect(local.status.status).toBe(200);
    expect(JSON.parse(local.status.body)).toMatchObject({ phase: 'starting' });
    expect(local.metrics.body).toContain('perpbot_');
    expect(JSON.parse(local.events)).toMatchObject({ phase: 'starting' });
  }, 60_000);
});
