import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/openJournal.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { JumpClock } from './support/jumpClock.js';
import { flightMakerConfig } from './support/flightMakerConfig.js';
import { startBotOnSim } from './support/journalBot.js';
import { fundedAccount } from './support/simAccount.js';
import { REPO_ROOT, spawnPerpbot } from './support/spawnPerpbot.js';

/**
 * A flight whose stream stalled twice (its frames discarded, the connection kept): the recorded bot
 * found each loss by the oracle's block numbers and reconciled with the venue, and
 * `perpbot replay FLIGHT --verify` re-drives the same strategy through the same reconciliations
 * with 0 divergences. The simulator's and the bot's clock jump a second at a time, a block a second
 * (\`sim.block_ms\` says so to the bot: a stream silent for 5 blocks is stale and reconnected, so a
 * stall of three is ridden out).
 */
const BOT_MS = 90_000;
const PACE_MS = 40;
/** Bot seconds at which a stall of three blocks begins. */
const STALLS_AT = [30, 60];

function configText(dir: string): string {
  return flightMakerConfig(dir, 20, 'sim: { block_ms: 1000 }\n');
}

describe('flight recorder: a run whose stream stalled replays with --verify', () => {
  let sim: RunningSim;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-flight-stall-'));
    const clock = new JumpClock();
    sim = await startSim({ port: 0, blockMs: 1_000, registrationLagMs: 0, seed: 11, clock });
    const who = await fundedAccount(sim);
    const bot = await startBotOnSim(sim, who, configText(dir), REPO_ROOT, { clock });
    for (let s = 0; s < BOT_MS / 1_000; s++) {
      if (STALLS_AT.includes(s)) sim.controls.stallStreams(true);
      if (STALLS_AT.includes(s - 3)) sim.controls.stallStreams(false);
      await clock.jump(1_000);
      await new Promise((r) => setTimeout(r, PACE_MS));
    }
    await bot.stop();
  }, 60_000);
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reconciled each loss live, and replays the same intents in the same order: 0 divergences', async () => {
    const journal = openJournal(join(dir, 'journal.sqlite'), { readonly: true });
    try {
      const rows = journal.db
        .prepare("SELECT COUNT(*) AS n FROM reconciliations WHERE trigger = 'frames_lost'")
        .get() as { n: number };
      expect(rows.n).toBeGreaterThanOrEqual(STALLS_AT.length);
    } finally {
      journal.close();
    }
    const config = join(dir, 'same.yaml');
    writeFileSync(config, configText(dir));
    const run = await spawnPerpbot(['replay', join(dir, 'flight'), '--verify', '--config', config]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/(\d+) intents recorded, \1 replayed/);
    expect(run.stdout).toContain('0 divergences');
    expect(run.code).toBe(0);
  }, 60_000);
});
