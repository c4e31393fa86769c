import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/runtime/cli/runCli.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { memoryIo, testKeys, type TestKeys } from '../runtime/cli/cliTestSupport.js';
import { journalBotConfig, prepareProbeRoot, until } from './support/journalBot.js';
import { GC_EVERY_100_MS, spawnPerpbot, startPerpbotIn, type RunningPerpbot } from './support/spawnPerpbot.js';

const TOKEN = 'deadline-test-token-0123456789abcdef';

/** An HTTP server that reads every request and never answers it (nor a WebSocket upgrade). */
async function stallingServer(): Promise<{ url: string; bodies: string[]; close: () => Promise<void> }> {
  const bodies: string[] = [];
  const server = createServer((req: IncomingMessage) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => bodies.push(text));
  });
  server.on('upgrade', () => undefined);
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Deadlines that garbage collection cannot take away: the CLI runs with a full collection every
 * 100 ms (`--expose-gc`), and a peer that stalls still ends each request at its timeout.
 */
describe('timeouts that cannot be lost (the CLI spawned with --expose-gc, gc every 100 ms)', () => {
  let receiver: Awaited<ReturnType<typeof stallingServer>>;
  beforeAll(async () => {
    receiver = await stallingServer();
  });
  afterAll(async () => {
    await receiver.close();
  });

  describe('alerts', () => {
    let sim: RunningSim;
    let dir: string;
    let keys: TestKeys;
    let bot: RunningPerpbot;
    beforeAll(async () => {
      sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
      dir = mkdtempSync(join(tmpdir(), 'perpbot-deadlines-'));
      prepareProbeRoot(dir);
      keys = testKeys();
    });
    afterAll(async () => {
      bot.child.kill('SIGKILL');
      await bot.exited;
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('tries the next alert (a kill-switch trip) after a stalled one, within its timeout, and logs its failure', async () => {
      const configPath = join(dir, 'perpbot.yaml');
      writeFileSync(
        configPath,
        journalBotConfig(
          dir,
          'control: { port: 0 }\nalerts: { webhook_url_env: PERPBOT_ALERT_WEBHOOK, events: [kill_switch], timeout_ms: 1000, attempts: 1 }\n',
        )
          .replace('http://127.0.0.1:1', sim.restUrl)
          .replace('ws://127.0.0.1:1/ws', sim.wsUrl),
      );
      expect(await runCli(['setup', '--config', configPath], memoryIo({ env: keys.env, cwd: dir }).io)).toBe(0);
      const env = { ...keys.env, PERPBOT_CONTROL_TOKEN: TOKEN, PERPBOT_ALERT_WEBHOOK: `${receiver.url}/hook/secret` };
      bot = startPerpbotIn(['start', '--config', configPath], dir, env, GC_EVERY_100_MS);
      await until(() => bot.output().includes('"msg":"bot running"'), 60_000).catch((error: unknown) => {
        throw new Error(`the bot did not start: ${bot.output().slice(-2000)}`, { cause: error });
      });
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)".*control server listening/.exec(bot.output())?.[1] ?? '';
      const killSwitch = async (action: 'trip' | 'reset'): Promise<number> =>
        (
          await fetch(`${url}/api/kill-switch`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
            body: JSON.stringify({ action }),
          })
        ).status;
      const dropped = (): number => bot.output().split('"msg":"alert webhook failed; alert dropped"').length - 1;

      expect(await killSwitch('trip')).toBe(200);
      await until(() => dropped() === 1, 5_000);
      // The reset is an alert of the same event: it stalls and times out too.
      expect(await killSwitch('reset')).toBe(200);
      await until(() => dropped() === 2, 5_000);
      // Collections ran all along; the receiver still stalls. The next trip's alert is posted and times out.
      const trippedAt = Date.now();
      expect(await killSwitch('trip')).toBe(200);
      await until(() => dropped() === 3, 5_000);
      expect(Date.now() - trippedAt).toBeLessThan(3_000);
      // The receiver heard both trips: the last alert was posted, not stuck behind the first.
      const trips = receiver.bodies.filter((body) => body.includes('kill switch tripped'));
      expect(trips).toHaveLength(2);
      expect(bot.output()).toContain('"reason":"timed out"');
      expect(bot.output()).not.toContain('/hook/secret');
    }, 120_000);
  });

  it('perpbot probe against a venue that never answers ends within its deadline, every row failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpbot-probe-stall-'));
    try {
      const config = join(dir, 'perpbot.yaml');
      writeFileSync(
        config,
        [
          'venue:',
          '  profile: testnet',
          `  rest_url: ${receiver.url}`,
          `  ws_url: ${receiver.url.replace('http:', 'ws:')}/ws`,
          '  request_timeout_ms: 500',
          'risk: { max_order_notional: "1000", max_position_per_market: "5000", max_open_orders: 20, max_actions_per_second: 5, kill_switch: { max_loss: "500" } }',
          'strategies:',
          '  - { name: mm, module: strategies/marketMaker.ts, markets: [1], params: { size: "0.001", spread_bps: 20, max_inventory: "0.01" } }',
          'logging: { level: silent, pretty: false }',
          `journal: { path: ${JSON.stringify(join(dir, 'journal.sqlite'))} }`,
          '',
        ].join('\n'),
      );
      const json = join(dir, 'probe.json');
      const startedAt = Date.now();
      const run = await spawnPerpbot(
        ['probe', '--config', config, '--seconds', '1', '--json', json],
        { PERPBOT_KEY_DIR: join(dir, 'no-keys') },
        60_000,
        GC_EVERY_100_MS,
      );
      const took = Date.now() - startedAt;
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
      // Seven reads of 0.5 s, the WebSocket handshake's 0.5 s, the CLI's start: well within 20 s.
      expect(took).toBeLessThan(20_000);
      expect(run.stdout).toContain('GET /v1/markets');
      expect(run.stdout).toMatch(/FAILED +no answer: no complete answer within 500 ms/);
      expect(statSync(json).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
