import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { openJournal } from '../../src/journal/openJournal.js';
import type { JournalForBotOptions } from '../../src/journal/journalForBot.js';
import { createSilentLogger } from '../../src/runtime/operations/logging/createLogger.js';
import { JOURNAL_RECONCILER } from '../../src/journal/reconcilerGate.js';
import { ReconnectReconciliation } from '../../src/journal/reconnectReconciliation.js';
import { RoundSnapshot } from '../../src/engine/connection/roundSnapshot.js';
import { readVenueSnapshotWithNonces } from '../../src/venue/state/venueSnapshot.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import type { RestClient } from '../../src/venue/rest/restClient.js';
import { fundedAccount } from './support/simAccount.js';
import { engineOnSim } from './support/engineOnSim.js';

/** The account's REST client, whose next balance read after `hold()` waits for the release: a reconciliation caught mid-read. */
function holdableRest(rest: RestClient) {
  let held: Promise<void> | undefined;
  let reached: () => void = () => undefined;
  const reading = new Promise<void>((resolve) => (reached = resolve));
  const client: RestClient = {
    ...rest,
    crossMarginBalance: async (...args) => {
      const wait = held;
      held = undefined;
      reached();
      await wait;
      return rest.crossMarginBalance(...args);
    },
  };
  const hold = (): (() => void) => {
    let release: () => void = () => undefined;
    held = new Promise<void>((resolve) => (release = resolve));
    return release;
  };
  return { client, hold, reading };
}

/** An engine on the simulator, the journal's reconnect reconciliation over a holdable REST client, and a way to drop the connection. */
async function raceRig(sim: RunningSim, dir: string) {
  const who = await fundedAccount(sim);
  const engine = engineOnSim(who);
  await engine.start();
  const rest = holdableRest(who.rest);
  const o: JournalForBotOptions = {
    path: join(dir, 'journal.sqlite'),
    account: who.account,
    rest: rest.client,
    clock: systemClock,
    log: createSilentLogger(),
    markets: [1],
    runId: 'run-1',
    unknownOrders: 'leave',
    adopter: () => undefined,
    maxInFlightWaitMs: 0,
  };
  const journal = openJournal(o.path);
  const reconciliation = new ReconnectReconciliation(o, journal);
  const part = reconciliation.part(engine);
  engine.conditions.registerReconciler(JOURNAL_RECONCILER);
  return {
    engine,
    rest,
    reconciliation,
    missingSince: () => journal.fillsMissingSince(who.account, 'run-1'),
    drop: (lostAtMs: number) => {
      engine.conditions.feedDown('connection lost');
      engine.conditions.feedUp();
      part.reconnected?.(lostAtMs, 'reconnect');
    },
    /** Frames lost on the connection since `sinceMs`; then one attempt of the part, as the engine runs it. */
    framesLost: (sinceMs: number) => part.reconnected?.(sinceMs, 'frames_lost'),
    attemptPart: () =>
      part.attempt(
        1,
        new AbortController().signal,
        new RoundSnapshot(() => readVenueSnapshotWithNonces(who.rest, { account: who.account, markets: [1] })),
      ),
    triggers: () =>
      (journal.db.prepare('SELECT trigger FROM reconciliations ORDER BY rowid').all() as { trigger: string }[]).map(
        (r) => r.trigger,
      ),
    close: async () => {
      journal.close();
      await engine.stop();
    },
  };
}

describe('journal: a reconnect reconciliation overtaken by a newer drop', () => {
  let sim: RunningSim;
  let dir: string;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0, restRequestsPer10s: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-race-'));
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finishing after the connection dropped again, it keeps the newer window open and trading waiting for it', async () => {
    const { engine, rest, reconciliation, missingSince, drop, close } = await raceRig(sim, dir);
    const firstLost = Date.now() - 5_000;
    drop(firstLost);
    const release = rest.hold();
    const first = reconciliation.attempt(engine, firstLost, 1);
    await rest.reading;
    // Dropped again while the first reconciliation reads the venue: fills after this may be
    // missing from what it read.
    drop(Date.now() - 1_000);
    release();
    await first;

    expect(missingSince()).toBe(firstLost);
    expect(engine.conditions.state.mode).toBe('degraded');

    // The newer reconnect's attempt covers both windows; then trading resumes and the gap closes.
    await reconciliation.attempt(engine, firstLost, 1);
    expect(missingSince()).toBeUndefined();
    expect(engine.conditions.state.mode).toBe('trading');
    await close();
  });

  it('frames lost before the reconnect was reconciled: the round covers the reconnect window and is journaled as the reconnect', async () => {
    const { engine, missingSince, drop, framesLost, attemptPart, triggers, close } = await raceRig(sim, dir);
    const lost = Date.now() - 5_000;
    drop(lost);
    framesLost(Date.now() - 1_000);
    expect(missingSince()).toBe(lost);
    await attemptPart();
    expect(missingSince()).toBeUndefined();
    expect(triggers().at(-1)).toBe('reconnect');
    // Reconciled: the next loss of frames is a round of its own.
    framesLost(Date.now() - 500);
    await attemptPart();
    expect(triggers().at(-1)).toBe('frames_lost');
    expect(engine.conditions.state.mode).toBe('trading');
    await close();
  });

  it("finishing after the newer reconnect's attempt already covered both windows, it reopens nothing", async () => {
    const { engine, rest, reconciliation, missingSince, drop, close } = await raceRig(sim, dir);
    const firstLost = Date.now() - 5_000;
    drop(firstLost);
    const release = rest.hold();
    const first = reconciliation.attempt(engine, firstLost, 1);
    await rest.reading;
    drop(Date.now() - 1_000);
    await reconciliation.attempt(engine, firstLost, 1);
    expect(missingSince()).toBeUndefined();

    release();
    await first;
    expect(missingSince()).toBeUndefined();
    expect(engine.conditions.state.mode).toBe('trading');
    await close();
  });
});
