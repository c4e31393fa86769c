import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { venueSender } from '../../src/engine/sending/actionSender.js';
import { Engine } from '../../src/engine/engine.js';
import { withEngineDefaults } from '../../src/engine/config/engineConfig.js';
import type { IntentOutcome } from '../../src/engine/intents/intentOutcome.js';
import { placeLimit } from '../../src/engine/intents/intentBuilders.js';
import { compareNoncePairs } from '../../src/engine/nonces/noncePair.js';
import { SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import { openJournal } from '../../src/journal/openJournal.js';
import { openJournalForBot } from '../../src/journal/openJournalForBot.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { fundedAccount } from './support/simAccount.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const CHILD = new URL('./support/journalBurstChild.ts', import.meta.url).pathname;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** Runs the burst child until `killAfter` outcomes were printed, then kills it with SIGKILL. */
function burstAndKill(env: Record<string, string>, killAfter: number): Promise<{ outcomes: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let outcomes = 0;
    let stderr = '';
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith('outcome ')) outcomes += 1;
      if (outcomes >= killAfter && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve({ outcomes, stderr });
      else reject(new Error(`burst child exited by itself (${outcomes} outcomes): ${stderr}`));
    });
  });
}

describe('journal survives kill -9 during a burst', () => {
  let sim: RunningSim;
  let dir: string;
  beforeEach(async () => {
    sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0, restRequestsPer10s: 100_000 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-journal-kill-'));
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('accounts for every order after the restart and never reuses a nonce', async () => {
    const who = await fundedAccount(sim);
    const path = join(dir, 'journal.sqlite');
    const killed = await burstAndKill(
      {
        BURST_ACCOUNT: who.account,
        BURST_REST_URL: sim.restUrl,
        BURST_JOURNAL: path,
        BURST_COUNT: '200',
        BURST_SIGNER_KEY: who.signerKey,
      },
      60,
    );
    expect(killed.outcomes).toBeGreaterThanOrEqual(60);

    // What the killed process left: readable, with intents in flight (sent or not yet signed).
    const left = openJournal(path, { readonly: true });
    const inFlightAtKill = left.inFlightIntents(who.account);
    const sentAtKill = inFlightAtKill.filter((f) => f.requests.length > 0).length;
    left.close();
    expect(inFlightAtKill.length).toBeGreaterThan(0);

    // Restart: reconcile (waiting out the permits that were in flight), then trade again.
    const runId = 'after-kill';
    const journaled = await openJournalForBot({
      path,
      account: who.account,
      rest: who.rest,
      clock: systemClock,
      log: quiet,
      markets: [1],
      runId,
      unknownOrders: 'leave',
      adopter: () => undefined,
      maxInFlightWaitMs: 10_000,
    });
    const { journal } = journaled;
    try {
      const highWaterBefore = journaled.restoredNonceHighWater;
      expect(highWaterBefore).toBeDefined();
      expect(journal.inFlightIntents(who.account)).toEqual([]);
      // Each was resolved from the venue's evidence and reported; the unsent ones as never sent.
      const differences = journaled.startReport.differences;
      const reported = new Set(differences.flatMap((d) => ('intentId' in d ? [d.intentId] : [])));
      expect(inFlightAtKill.filter((f) => !reported.has(f.intentId))).toEqual([]);
      expect(differences.filter((d) => d.type === 'in_flight_resolved' && d.reason === 'never sent')).toHaveLength(
        inFlightAtKill.length - sentAtKill,
      );
      expect(
        differences.filter((d) => d.type === 'in_flight_unresolved' || d.type === 'order_closed_unattributed'),
      ).toEqual([]);

      // Every journaled placement is resolved, and the journal and the venue agree on what rests.
      const intents = journal.db.prepare('SELECT intent_id, outcome_type FROM intents').all() as {
        intent_id: string;
        outcome_type: string | null;
      }[];
      expect(intents.length).toBeGreaterThanOrEqual(60);
      expect(intents.filter((i) => i.outcome_type === null)).toEqual([]);
      const venueOpen = (await who.rest.openOrders({ account: who.account, market_id: '1' })).orders
        .map((o) => o.order_id.toLowerCase())
        .sort();
      const journalOpen = journal
        .liveOrders(who.account)
        .map((o) => o.orderId)
        .sort();
      expect(journalOpen).toEqual(venueOpen);
      const byState = journal.db.prepare('SELECT state, COUNT(*) AS n FROM orders GROUP BY state').all() as {
        state: string;
        n: number;
      }[];
      // Post-only bids far below the mark: nothing filled, so nothing closed counts as filled.
      expect(byState.map((s) => s.state).every((s) => s === 'open' || s === 'failed' || s === 'cancelled')).toBe(true);
      expect(journal.recentFills(10)).toEqual([]);
      // An intent killed before its order was tracked was never signed nor sent.
      const withoutOrder = journal.db
        .prepare(
          'SELECT i.intent_id FROM intents i LEFT JOIN orders o ON o.intent_id = i.intent_id WHERE o.intent_id IS NULL',
        )
        .all() as { intent_id: string }[];
      for (const w of withoutOrder) expect(journal.requestsOf(w.intent_id)).toEqual([]);
      expect(byState.reduce((sum, s) => sum + s.n, 0) + withoutOrder.length).toBe(intents.length);
      for (const failed of journal.db.prepare("SELECT outcome FROM intents WHERE outcome_type = 'failed'").all() as {
        outcome: string;
      }[]) {
        expect(['NOT_EXECUTED', 'CLOSED_UNFILLED']).toContain(JSON.parse(failed.outcome).error.code);
      }

      const engine = new Engine({
        account: who.account,
        signer: who.signer,
        rest: who.rest,
        sender: venueSender(who.rest),
        config: withEngineDefaults({
          guards: { maxOpenOrders: 10_000, actionsPerSecond: 100_000, actionBurst: 100_000 },
        }),
        selectors: SPEC_SELECTORS,
        clock: systemClock,
        log: quiet,
        markets: [1],
        journal: journaled.engineJournal,
        restoredNonceHighWater: highWaterBefore!,
      });
      journaled.beforeStart(engine);
      await engine.start();
      expect(engine.tracker.openOrders().length).toBe(venueOpen.length);
      const outcomes: IntentOutcome[] = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          engine.execute(
            placeLimit({
              intentId: `again-${i}`,
              strategy: 'burst',
              marketId: 1,
              side: 'buy',
              size: '0.00015',
              price: (40_000 + i).toString(),
              postOnly: true,
            }),
          ),
        ),
      );
      await engine.stop();
      expect(outcomes.map((o) => (o.type === 'failed' ? (o.error.kind ?? o.error.code) : o.type))).toEqual(
        outcomes.map(() => 'accepted'),
      );
      const newPairs = journal.db.prepare('SELECT anchor, bit FROM nonces WHERE run_id = ?').all(runId) as {
        anchor: number;
        bit: number;
      }[];
      expect(newPairs.length).toBe(20);
      for (const p of newPairs)
        expect(compareNoncePairs({ anchor: BigInt(p.anchor), bit: p.bit }, highWaterBefore!)).toBe(1);
      expect((await who.rest.openOrders({ account: who.account, market_id: '1' })).orders.length).toBe(
        venueOpen.length + 20,
      );
    } finally {
      journaled.close();
    }
  }, 60_000);
});
