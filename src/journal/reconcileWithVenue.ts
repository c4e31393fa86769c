import { compareDecimals } from '../core/decimal.js';
import { attributeByPosition } from './attributeByPosition.js';
import { recoverHistoryFills } from './historyFills.js';
import type { ReconcileOptions } from './reconcileOptions.js';
import { BASE_POSITION_SOURCE, positionWriteOf } from './positionBase.js';
import { readReconciliationInputs } from './reconciliationInputs.js';
import type { ReconciliationReport } from './reconciliationReport.js';
import { ReconciliationRun } from './reconciliationRun.js';
import { resolveInFlightIntents } from './resolveInFlight.js';
import { resolveLeftOrders } from './resolveLeftOrders.js';
import { reviewVenueOpenOrders } from './reviewVenueOpenOrders.js';

/**
 * Compares the journal with the venue (open orders, positions, balance, nonce state, history) and
 * resolves what the journal left open: intents that were in flight when a process stopped, orders
 * that left the book unobserved, fills the fills channel never delivered, and orders open on the
 * venue that the journal does not know. Nothing is guessed: missed fills are read from the venue's
 * trade history (real ids, prices, fees) and journaled once by id; an order's fate is its record
 * in the order history (by id, or by client_order_id for a placement whose answer was lost), else
 * the open orders or its nonce pair (consumed = executed). Only where history cannot be read (or
 * does not hold the order) is a closed order judged by the position: filled only when exactly one
 * choice of filled orders explains the position's move, and the report says it was inferred.
 *
 * The steps run in this order, each seeing what the earlier ones wrote: in-flight intents, orders
 * that left the book, missed fills, the position's judgement of what is left, the venue's open
 * orders, then the snapshots.
 */
export async function reconcileWithVenue(o: ReconcileOptions): Promise<ReconciliationReport> {
  const startedMs = o.clock.now();
  const inputs = await readReconciliationInputs(o);
  // A snapshot read before this began (the reconnect's shared read): what it shows held from its read on.
  const atMs = Math.min(startedMs, inputs.venue.readAtMs ?? startedMs);
  const run = new ReconciliationRun(o, inputs, atMs);
  resolveInFlightIntents(run);
  resolveLeftOrders(run);
  recoverMissedFills(run);
  attributeByPosition(run);
  await reviewVenueOpenOrders(run);
  journalSnapshots(run);
  return run.report();
}

/** Fills the channel missed, with their real ids, prices and fees, each counted once by id. */
function recoverMissedFills(run: ReconciliationRun): void {
  const { journal, account, apply, countHistoryFill } = run.options;
  const { history } = run.inputs;
  if (!history.available) return;
  const count = apply ? (countHistoryFill ?? 'journal') : 'report';
  run.differences.push(...recoverHistoryFills(journal, account, history.fills, count, run.atMs));
}

/**
 * When applying: the venue's positions as the new base (at start) or as the run's last word (at a
 * stop), the balance, the fill gaps the history read closed, and the reconciliation itself.
 */
function journalSnapshots(run: ReconciliationRun): void {
  const { journal, account, trigger, apply } = run.options;
  const { venue, balance, history, fillsSinceMs } = run.inputs;
  if (!apply) return;
  if (trigger === 'start') {
    for (const position of venue.positions.values())
      journal.recordPosition(account, positionWriteOf(position), BASE_POSITION_SOURCE, run.atMs);
  }
  if (trigger === 'stop') journalStopPositions(run);
  journal.recordBalance(account, balance.venue, trigger, run.atMs);
  // Every fill since the window's start is journaled now: the next start need not read back past it.
  if (history.available && fillsSinceMs !== undefined) journal.closeFillGaps(account, fillsSinceMs, run.atMs);
  journal.recordReconciliation(account, run.options.currentRunId, trigger, run.ok, run.differences, run.atMs);
}

/** Snapshots of this source are the venue's positions as the reconciliation at a stop read them. */
const STOP_POSITION_SOURCE = 'stop';

/**
 * At a stop, the venue's positions where the journal's latest snapshot differs: the positions
 * channel's frames a stalled stream lost would otherwise leave the journal's last word stale. A
 * snapshot the channel wrote after this reconciliation began is newer than the read and stays last.
 */
function journalStopPositions(run: ReconciliationRun): void {
  const { journal, account } = run.options;
  for (const position of run.inputs.venue.positions.values()) {
    const latest = journal.latestPosition(account, position.marketId);
    if (latest !== undefined && latest.atMs > run.atMs) continue;
    const write = positionWriteOf(position);
    const flat = compareDecimals(write.size, '0') === 0;
    if (latest === undefined && flat) continue;
    if (latest !== undefined && compareDecimals(latest.size, write.size) === 0 && (flat || latest.side === write.side))
      continue;
    journal.recordPosition(account, write, STOP_POSITION_SOURCE, run.atMs);
  }
}
