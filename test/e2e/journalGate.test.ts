import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, filter, Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { venueSender } from '../../src/engine/actionSender.js';
import { Engine } from '../../src/engine/engine.js';
import { withEngineDefaults } from '../../src/engine/engineConfig.js';
import type { IntentOutcome } from '../../src/engine/intentOutcome.js';
import { placeLimit } from '../../src/engine/intentBuilders.js';
import { SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import { openJournalForBot } from '../../src/runtime/journal/openJournalForBot.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { fundedAccount } from './support/simAccount.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('intents wait while a reconciliation runs', () => {
  let sim: RunningSim;
  let dir: string;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-gate-'));
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds an intent until the reconciliation after a reconnect is journaled, and refuses intents after a failed one', async () => {
    const who = await fundedAccount(sim);
    const journaled = await openJournalForBot({ path: join(dir, 'journal.sqlite'), account: who.account, rest: who.rest, clock: systemClock, log: quiet, markets: [1], runId: 'r1', unknownOrders: 'leave', adopter: () => undefined, maxInFlightWaitMs: 5_000, settleMs: 0 });
    const engine = new Engine({ account: who.account, signer: who.signer, rest: who.rest, sender: venueSender(who.rest), config: withEngineDefaults({}), selectors: SPEC_SELECTORS, clock: systemClock, log: quiet, markets: [1], journal: journaled.engineJournal });
    try {
      journaled.beforeStart(engine);
      await engine.start();
      const connection = new Subject<{ status: string }>();
      await journaled.afterStart(engine, { connection$: connection, positionsChanged$: new Subject() });
      const port = journaled.gate({ submit: (intent) => engine.submit(intent), outcomes: engine.outcomes$, cancelOrdersOf: (s) => engine.cancelOrdersOf(s) });
      const reconnects = () => (journaled.journal.db.prepare("SELECT COUNT(*) AS n FROM reconciliations WHERE trigger = 'reconnect'").get() as { n: number }).n;

      connection.next({ status: 'authenticated' });
      connection.next({ status: 'connecting' });
      connection.next({ status: 'authenticated' });
      // The reconnect reconciliation has begun (reads in flight): this intent must wait for it.
      const held = firstValueFrom(port.outcomes.pipe(filter((o: IntentOutcome) => o.intentId === 'held')));
      port.submit(placeLimit({ intentId: 'held', strategy: 's', marketId: 1, side: 'buy', size: '0.0002', price: '60000', postOnly: true }));
      // The engine journals an intent the moment it receives it: none yet means it was held.
      expect(journaled.journal.db.prepare("SELECT COUNT(*) AS n FROM intents WHERE intent_id = 'held'").get()).toEqual({ n: 0 });
      const outcome = await held;
      expect(outcome.type).toBe('accepted');
      expect(reconnects()).toBe(1);
      const intentAt = (journaled.journal.db.prepare("SELECT received_ms FROM intents WHERE intent_id = 'held'").get() as { received_ms: number }).received_ms;
      const reconciledAt = (journaled.journal.db.prepare("SELECT at_ms FROM reconciliations WHERE trigger = 'reconnect'").get() as { at_ms: number }).at_ms;
      expect(intentAt).toBeGreaterThanOrEqual(reconciledAt);

      // A reconciliation that cannot read the venue: trading pauses with a reason.
      await sim.close();
      await expect(journaled.reconcileNow(engine, Date.now())).rejects.toBeDefined();
      const refused = firstValueFrom(port.outcomes.pipe(filter((o: IntentOutcome) => o.intentId === 'paused')));
      port.submit(placeLimit({ intentId: 'paused', strategy: 's', marketId: 1, side: 'buy', size: '0.0002', price: '60000', postOnly: true }));
      const pausedOutcome = await refused;
      expect(pausedOutcome.type === 'refused' ? pausedOutcome.rejection.reason : pausedOutcome.type).toMatch(/trading paused: reconciliation after a reconnect failed/);
    } finally {
      await engine.stop();
      journaled.close();
    }
  }, 30_000);
});
