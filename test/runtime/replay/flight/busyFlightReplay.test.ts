import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/runtime/config/loadConfig.js';
import { createLogger } from '../../../../src/runtime/operations/logging/createLogger.js';
import { verifyFlight } from '../../../../src/runtime/replay/flight/verifyFlight.js';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');

/**
 * The first 21 s of a flight recorded by `perpbot start` on config/default.yaml with the legacy
 * cancel-then-place maker (test/e2e/support/legacyMakerStrategy.ts) at 5 actions a second, on a
 * machine loaded well past its two cores: the strategy's requotes took tens of milliseconds to
 * hand over, a cancel's request left up to 100 ms after its admission, and the simulator's frames
 * came several to a socket read. Replayed before this fix, the strategy's inputs left the recorded
 * order at the 354th (a placement admitted after two frames it had preceded: the cancels ahead of
 * it had been admitted at their requests' times, so the replay's rate limit ran behind), and a
 * full run of such a flight diverged in about 2 of 9 runs.
 */
const FLIGHT = join(import.meta.dirname, 'fixtures', 'legacy-maker-busy.jsonl.gz');

/** The recorded bot's config: the default one, with the legacy maker under strategies/ and 5 actions a second. */
async function legacyConfig(spreadBps = 4) {
  const text = readFileSync(join(REPO_ROOT, 'config/default.yaml'), 'utf8')
    .replace('module: strategies/marketMaker.ts', 'module: strategies/legacyMaker.ts')
    .replace(/max_actions_per_second: 40/, 'max_actions_per_second: 5')
    .replace('spread_bps: 4', `spread_bps: ${spreadBps}`);
  return loadConfig({ text, env: {} });
}

describe('a flight recorded on a busy machine replays with the recorded inputs in the recorded order', () => {
  let project: string;
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'perpbot-busy-flight-'));
    mkdirSync(join(project, 'strategies'));
    const legacy = join(REPO_ROOT, 'test', 'e2e', 'support', 'legacyMakerStrategy.ts');
    writeFileSync(
      join(project, 'strategies', 'legacyMaker.ts'),
      `export { default } from ${JSON.stringify(legacy)};\n`,
    );
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('feeds the legacy maker every frame, order event and outcome where it came, and the legacy maker decides as it did', async () => {
    const verdict = await verifyFlight({
      path: FLIGHT,
      config: await legacyConfig(),
      root: project,
      logger: createLogger({ level: 'silent', pretty: false }),
    });
    expect(verdict.recordedIntents).toBeGreaterThan(80);
    expect(verdict.replayedIntents).toBe(verdict.recordedIntents);
    expect(verdict.divergence).toBeUndefined();
    expect(verdict.inputs.recorded).toBeGreaterThan(600);
    expect(verdict.inputs.firstDifference).toBeUndefined();
  }, 60_000);

  it('reports the first divergence of the strategy changed by one parameter (spread_bps 4 to 5): its first quote', async () => {
    const verdict = await verifyFlight({
      path: FLIGHT,
      config: await legacyConfig(5),
      root: project,
      logger: createLogger({ level: 'silent', pretty: false }),
    });
    expect(verdict.divergence?.index).toBe(0);
    expect(verdict.divergence?.recorded?.canonical).toContain('"kind":"placeLimit"');
    expect(verdict.divergence?.replayed?.canonical).toContain('"kind":"placeLimit"');
    expect(verdict.divergence?.replayed?.canonical).not.toBe(verdict.divergence?.recorded?.canonical);
  }, 60_000);
});
