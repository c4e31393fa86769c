import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/runtime/cli/runCli.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { memoryIo, testKeys, type TestKeys } from '../runtime/cli/cliTestSupport.js';
import { journalBotConfig, prepareProbeRoot, until } from './support/journalBot.js';
import { startPerpbotIn, type RunningPerpbot } from './support/spawnPerpbot.js';
import { launchChromium, WITHOUT_LOCAL_NETWORK_CHECKS } from './support/chromium.js';

const TOKEN = 'lockout-test-token-0123456789abcdef';

/** A page of another site that fires no-preflight POSTs (text/plain, no token) at the bot's kill switch. */
const ATTACK_PAGE = (target: string): string => `<!doctype html><title>another site</title><script>
window.sent = (async () => {
  let sent = 0;
  for (let i = 0; i < 20; i++) {
    try {
      await fetch(${JSON.stringify(target)}, { method: 'POST', mode: 'no-cors', body: '{"action":"trip"}' });
    } catch {}
    sent++;
  }
  return sent;
})();
</script>`;

/**
 * The kill switch always works for the token holder: no failures of others (a local process, a
 * web page) and no pile of idle connections keep the operator's valid trip from going through.
 */
describe("the kill switch of a running bot can't be locked out (perpbot start spawned)", () => {
  let sim: RunningSim;
  let dir: string;
  let keys: TestKeys;
  let bot: RunningPerpbot;
  let browser: Browser | undefined;
  let url: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-lockout-'));
    prepareProbeRoot(dir);
    keys = testKeys();
    const configPath = join(dir, 'perpbot.yaml');
    writeFileSync(
      configPath,
      journalBotConfig(dir, 'control: { port: 0 }\n')
        .replace('http://127.0.0.1:1', sim.restUrl)
        .replace('ws://127.0.0.1:1/ws', sim.wsUrl),
    );
    expect(await runCli(['setup', '--config', configPath], memoryIo({ env: keys.env, cwd: dir }).io)).toBe(0);
    bot = startPerpbotIn(['start', '--config', configPath], dir, { ...keys.env, PERPBOT_CONTROL_TOKEN: TOKEN });
    await until(() => bot.output().includes('"msg":"bot running"'), 60_000).catch((error: unknown) => {
      throw new Error(`the bot did not start: ${bot.output().slice(-2000)}`, { cause: error });
    });
    url = /"url":"(http:\/\/127\.0\.0\.1:\d+)".*control server listening/.exec(bot.output())?.[1] ?? '';
    expect(url).toMatch(/^http:/);
  }, 90_000);
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await browser?.close();
    bot.child.kill('SIGKILL');
    await bot.exited;
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${url}/api/kill-switch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('trips for the valid token within a second after 20 cross-site and 20 unauthenticated POSTs', async () => {
    browser = await launchChromium([WITHOUT_LOCAL_NETWORK_CHECKS]);
    const page = await browser.newPage();
    await page.route('http://evil.test/attack.html', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: ATTACK_PAGE(`${url}/api/kill-switch`) }),
    );
    await page.goto('http://evil.test/attack.html');
    expect(await page.evaluate<number>('window.sent')).toBe(20);
    await page.close();
    await until(() => bot.output().includes('control server: cross-site request refused'), 5_000);

    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await post({ action: 'trip' })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));

    const startedAt = Date.now();
    const trip = await post({ action: 'trip', reason: 'operator' }, { authorization: `Bearer ${TOKEN}` });
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    expect(trip.status).toBe(200);
    expect(await trip.json()).toMatchObject({ action: 'trip', killSwitch: { tripped: true } });
    expect(bot.output()).not.toContain(TOKEN);
  }, 60_000);

  it('answers health and the valid trip while 64 idle connections are held open', async () => {
    const { port } = new URL(url);
    for (let i = 0; i < 64; i++) {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('connect', resolve));
      sockets.push(socket);
    }
    const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
    expect(health.status).toBe(200);
    const trip = await post({ action: 'trip' }, { authorization: `Bearer ${TOKEN}` });
    expect(trip.status).toBe(200);
    expect(bot.child.exitCode).toBeNull();
  }, 30_000);
});
