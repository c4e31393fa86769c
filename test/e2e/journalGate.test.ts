import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, filter, NEVER, Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { venueSender } from '../../src/engine/sending/actionSender.js';
import { Engine } from '../../src/engine/engine.js';
import { withEngineDefaults } from '../../src/engine/config/engineConfig.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import type { Intent } from '../../src/engine/intents/intents.js';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import { openJournalForBot } from '../../src/journal/openJournalForBot.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { createRestClient, type RestClient } from '../../src/venue/rest/restClient.js';
import { until } from './support/journalBot.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

type JournalOptions = Pick<Parameters<typeof openJournalForBot>[0], 'rest' | 'log' | 'reconnectRetry'>;

/**
 * An engine journaled in `dir` and started, following the returned connection-state subject (the
 * journal follows the engine's reconnects, as in the bot); intents go to the engine, whose
 * admission gate holds them while the journal's reconciliation runs and refuses what opens risk
 * while it has failed.
 */
async function startJournaledEngine(who: SimAccount, dir: string, options: JournalOptions) {
  const journaled = await openJournalForBot({
    path: join(dir, 'journal.sqlite'),
    account: who.account,
    clock: systemClock,
    markets: [1],
    runId: 'r1',
    unknownOrders: 'leave',
    adopter: () => undefined,
    maxInFlightWaitMs: 5_000,
    settleMs: 0,
    ...options,
  });
  const engine = new Engine({
    account: who.account,
    signer: who.signer,
    // One client, as in the bot: a reconnect's one venue read is shared by both reconciliations.
    rest: options.rest ?? who.rest,
    sender: venueSender(who.rest),
    config: withEngineDefaults({}),
    selectors: SPEC_SELECTORS,
    clock: systemClock,
    log: quiet,
    markets: [1],
    journal: journaled.engineJournal,
  });
  const stop = async () => {
    await engine.stop();
    journaled.close();
  };
  try {
    journaled.beforeStart(engine);
    await engine.start();
    const connection = new Subject<{ status: string }>();
    engine.attach({ orders: NEVER, positions: NEVER, fills: NEVER, account: NEVER, oracle: NEVER, connection });
    await journaled.afterStart(engine, { positionsChanged$: new Subject() });
    const port = { submit: (intent: Intent) => engine.submit(intent), outcomes: engine.outcomes$ };
    return { journaled, engine, connection, port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

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
    // The journal's reads give up after a second: the venue below goes away for good.
    const rest = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 10_000, readDeadlineMs: 1_000 });
    const { journaled, engine, connection, port, stop } = await startJournaledEngine(who, dir, { rest, log: quiet });
    try {
      const reconnects = () =>
        (
          journaled.journal.db
            .prepare("SELECT COUNT(*) AS n FROM reconciliations WHERE trigger = 'reconnect'")
            .get() as { n: number }
        ).n;

      connection.next({ status: 'authenticated' });
      connection.next({ status: 'connecting' });
      connection.next({ status: 'authenticated' });
      // The reconnect reconciliation has begun (reads in flight): this intent must wait for it.
      const held = firstValueFrom(port.outcomes.pipe(filter((o: IntentOutcome) => o.intentId === 'held')));
      port.submit(
        placeLimit({
          intentId: 'held',
          strategy: 's',
          marketId: 1,
          side: 'buy',
          size: '0.0002',
          price: '60000',
          postOnly: true,
        }),
      );
      // The engine journals every request before sending it: none yet means it was held.
      expect(journaled.journal.db.prepare("SELECT COUNT(*) AS n FROM requests WHERE intent_id = 'held'").get()).toEqual(
        { n: 0 },
      );
      const outcome = await held;
      expect(outcome.type).toBe('accepted');
      expect(reconnects()).toBe(1);
      const intentAt = (
        journaled.journal.db.prepare("SELECT MIN(at_ms) AS at_ms FROM requests WHERE intent_id = 'held'").get() as {
          at_ms: number;
        }
      ).at_ms;
      const reconciledAt = (
        journaled.journal.db.prepare("SELECT at_ms FROM reconciliations WHERE trigger = 'reconnect'").get() as {
          at_ms: number;
        }
      ).at_ms;
      expect(intentAt).toBeGreaterThanOrEqual(reconciledAt);

      // A reconciliation that cannot read the venue: trading pauses with a reason.
      await sim.close();
      await expect(journaled.reconcileNow(engine, Date.now())).rejects.toBeDefined();
      const refused = firstValueFrom(port.outcomes.pipe(filter((o: IntentOutcome) => o.intentId === 'paused')));
      port.submit(
        placeLimit({
          intentId: 'paused',
          strategy: 's',
          marketId: 1,
          side: 'buy',
          size: '0.0002',
          price: '60000',
          postOnly: true,
        }),
      );
      const pausedOutcome = await refused;
      expect(pausedOutcome.type === 'refused' ? pausedOutcome.refusal.reason : pausedOutcome.type).toMatch(
        /^trading paused \(FEED_DOWN\): reconciliation after a reconnect failed/,
      );
    } finally {
      await stop();
    }
  }, 30_000);

  it('retries a failed reconnect reconciliation with backoff, refusing with the reason meanwhile, and resumes trading when an attempt succeeds', async () => {
    const who = await fundedAccount(sim);
    // The venue's nonce-state read fails while `down` (the reconnect's one read, which both reconciliations share).
    let down = false;
    let attempts = 0;
    let duringAttempt: ((attempt: number) => void) | undefined;
    const flaky = new Proxy(who.rest, {
      get(target, key, receiver) {
        if (key === 'nonceState') {
          return (...args: Parameters<RestClient['nonceState']>) => {
            if (!down) return target.nonceState(...args);
            attempts += 1;
            duringAttempt?.(attempts);
            return Promise.reject(new Error('venue unreachable'));
          };
        }
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const warnings: string[] = [];
    const log = {
      ...quiet,
      warn: (_o: object, msg?: string) => void warnings.push(msg ?? ''),
      error: (_o: object, msg?: string) => void warnings.push(msg ?? ''),
    };
    const { journaled, engine, connection, port, stop } = await startJournaledEngine(who, dir, {
      rest: flaky,
      log,
      // A waiting intent looks at the conditions every 50 ms: the pause before the next attempt
      // (150 to 300 ms with jitter) leaves it several looks at the failure, even on a loaded machine.
      reconnectRetry: { attempts: 3, baseMs: 300, maxMs: 600 },
    });
    try {
      const submit = (intentId: string) => {
        const outcome = firstValueFrom(port.outcomes.pipe(filter((o: IntentOutcome) => o.intentId === intentId)));
        port.submit(
          placeLimit({
            intentId,
            strategy: 's',
            marketId: 1,
            side: 'buy',
            size: '0.0002',
            price: '60000',
            postOnly: true,
          }),
        );
        return outcome;
      };
      const reconnect = () => {
        connection.next({ status: 'connecting' });
        connection.next({ status: 'authenticated' });
      };
      connection.next({ status: 'authenticated' });

      // Every attempt fails: three of them, with backoff between, then paused until the next reconnect.
      down = true;
      reconnect();
      await until(() => warnings.some((w) => w.includes('failed 3 times')));
      expect(attempts).toBeGreaterThanOrEqual(3);
      expect(warnings.filter((w) => w.includes('retrying in')).map((w) => w.replace(/in \d+ ms/, 'in N ms'))).toEqual([
        'reconciliation after a reconnect: retrying in N ms (attempt 2 of 3)',
        'reconciliation after a reconnect: retrying in N ms (attempt 3 of 3)',
      ]);
      // The engine's own reconciliation judges the same read, so it fails too (and retries on its own terms).
      const exhausted = await submit('paused-1');
      if (exhausted.type !== 'refused') throw new Error(`expected a refusal, got ${exhausted.type}`);
      expect(exhausted.refusal.reason).toMatch(
        /^trading paused \(FEED_DOWN\): .*(^|; )reconciliation after a reconnect failed \(venue unreachable\)$/,
      );
      expect(exhausted.refusal.hints).toContain('reconciliation failed 3 times: the bot retries at the next reconnect');

      // The next reconnect retries again. An intent submitted during its failing first attempt is
      // held, then refused with the reason and the next attempt; the venue answers again, the
      // second attempt succeeds and trading resumes.
      let meanwhile!: Promise<IntentOutcome>;
      attempts = 0;
      duringAttempt = (n) => {
        if (n !== 1) return;
        meanwhile = submit('paused-2');
        down = false;
      };
      reconnect();
      await until(() => attempts >= 1);
      const refused = await meanwhile;
      if (refused.type !== 'refused') throw new Error(`expected a refusal, got ${refused.type}`);
      expect(refused.refusal.reason).toMatch(
        /^trading paused \(FEED_DOWN\): .*reconciliation after a reconnect failed \(venue unreachable\)$/,
      );
      // Refused at the first failure of the round, the engine's or the journal's, each saying it retries.
      expect(
        refused.refusal.hints.some((h) => /retries/.test(h)),
        JSON.stringify(refused.refusal),
      ).toBe(true);
      const reconciled = () =>
        (
          journaled.journal.db
            .prepare("SELECT COUNT(*) AS n FROM reconciliations WHERE trigger = 'reconnect'")
            .get() as { n: number }
        ).n;
      await until(() => reconciled() === 1);
      // The engine's part retried the same failed read on its own backoff: trading resumes once both are done.
      await until(() => engine.conditions.state.mode === 'trading');
      expect((await submit('resumed')).type).toBe('accepted');
    } finally {
      await stop();
    }
  }, 15_000);
});
