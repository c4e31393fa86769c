import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { JumpClock } from './support/jumpClock.js';
import { flightMakerConfig } from './support/flightMakerConfig.js';
import { startBotOnSim } from './support/journalBot.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';
import { REPO_ROOT, spawnPerpbot } from './support/spawnPerpbot.js';

/**
 * The flight recorder and `perpbot replay FLIGHT --verify`: the bundled market maker runs three
 * minutes of bot time on the simulator with `recorder.enabled` (the simulator's and the bot's
 * clock jump a second at a time, the sockets real), then the CLI re-drives the recording through
 * the same strategy: 0 divergences; with spread_bps changed by one, the first requote differs.
 */
const BOT_MS = 180_000;
/**
 * Real time given to the sockets after each virtual second: pacing only, no assertion rests on it
 * (at 15 ms, a flight recorded on a heavily loaded machine now and then replayed with a divergence).
 */
const PACE_MS = 40;

function configText(dir: string, spreadBps: number): string {
  return flightMakerConfig(dir, spreadBps);
}

describe('flight recorder: a 3-minute market-maker run replays with --verify', () => {
  let sim: RunningSim;
  let dir: string;
  let flight: string;
  let who: SimAccount;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-flight-'));
    const clock = new JumpClock();
    sim = await startSim({ port: 0, blockMs: 1_000, registrationLagMs: 0, seed: 7, clock });
    who = await fundedAccount(sim);
    const bot = await startBotOnSim(sim, who, configText(dir, 20), REPO_ROOT, { clock });
    for (let ms = 0; ms < BOT_MS; ms += 1_000) {
      await clock.jump(1_000);
      await new Promise((r) => setTimeout(r, PACE_MS));
    }
    await bot.stop();
    flight = join(dir, 'flight');
  }, 60_000);
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the flight into flight/ beside the journal: signatures and order ids, never the keys', () => {
    const segments = readdirSync(flight).filter((n) => n.endsWith('.jsonl.gz'));
    expect(segments.length).toBeGreaterThan(0);
    const text = segments.map((n) => gunzipSync(readFileSync(join(flight, n))).toString('utf8')).join('');
    for (const key of [who.signerKey, who.accountKey]) {
      expect(text).not.toContain(key.slice(2));
      expect(text.toLowerCase()).not.toContain(key.slice(2).toLowerCase());
    }
    expect(text).toMatch(/\\"signature\\":\\"[A-Za-z0-9+/]{40,}/);
    expect(text).toMatch(/\\"order_id\\":\\"0x[0-9a-f]{40,}/);
  });

  it('replays with the same config: the same intents in the same order, 0 divergences, exit 0', async () => {
    const config = join(dir, 'same.yaml');
    writeFileSync(config, configText(dir, 20));
    const run = await spawnPerpbot(['replay', flight, '--verify', '--config', config]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/(\d+) intents recorded, \1 replayed/);
    expect(Number(/(\d+) intents recorded/.exec(run.stdout)?.[1])).toBeGreaterThan(4);
    expect(run.stdout).toContain('0 divergences');
    expect(run.code).toBe(0);
  }, 60_000);

  it('replays with spread_bps changed by one: the first differing intent and the frames before it, exit 1', async () => {
    const config = join(dir, 'changed.yaml');
    writeFileSync(config, configText(dir, 21));
    const run = await spawnPerpbot(['replay', flight, '--verify', '--config', config]);
    expect(run.stdout).toMatch(/divergence at intent #\d+:/);
    expect(run.stdout).toMatch(/recorded at .*"kind":"quote".*"price":"/);
    expect(run.stdout).toMatch(/now at .*"kind":"quote".*"price":"/);
    expect(run.stdout).toMatch(/the last [1-5] frames before it:\n {2}\d{4}-/);
    expect(run.code).toBe(1);
  }, 60_000);
});
