import { addDecimals, decimalToFixed, fixedToDecimal, negateDecimal } from '../core/decimal.js';
import { reconciledFillId } from './journal.js';
import {
  attributeFills,
  MAX_ATTRIBUTION_CANDIDATES,
  type Attribution,
  type AttributionCandidate,
} from './fillAttribution.js';
import { journalCountAtRead } from './positionBase.js';
import type { Candidate, ReconciliationRun } from './reconciliationRun.js';

const SCALE = 18;

/**
 * Judges the candidates (orders whose fate nothing else told) market by market by the venue's
 * position: how far it moved past what the journaled fills explain. An order is closed as filled
 * or cancelled only when exactly one choice of filled orders explains the move; otherwise it is
 * marked unknown. A move left unexplained is reported.
 */
export function attributeByPosition(run: ReconciliationRun): void {
  for (const marketId of run.inputs.markets) {
    const venue = run.inputs.venue.positions.get(marketId);
    if (venue !== undefined) attributeMarket(run, marketId, venue.signedSize);
  }
}

function attributeMarket(run: ReconciliationRun, marketId: number, venue: string): void {
  const inMarket = run.candidates.filter((c) => c.order.marketId === marketId);
  const expected = expectedAtRead(run, marketId, venue);
  const unexplained =
    expected === undefined
      ? undefined
      : decimalToFixed(venue, SCALE, 'position') - decimalToFixed(expected, SCALE, 'position');
  if (inMarket.length > 0) {
    const attribution: Attribution =
      unexplained === undefined ? { kind: 'none' } : attributeFills(inMarket.map(attributionCandidate), unexplained);
    if (attribution.kind === 'unique') {
      for (const c of inMarket) closeCandidate(run, c, attribution.filled.includes(c.order.intentId));
      return;
    }
    for (const c of inMarket) markUnattributed(run, c, attribution);
  }
  if (unexplained !== undefined && unexplained !== 0n && expected !== undefined) {
    const closedHere = inMarket.length > 0;
    run.differences.push({
      type: 'position_unexplained',
      marketId,
      expected,
      venue,
      reason:
        (closedHere
          ? 'orders left the book and the move does not single out which filled'
          : 'fills the journal has not seen (a partial fill of a resting order, or another client of this account)') +
        (run.inputs.history.available ? '' : ` (${run.inferred})`),
    });
  }
}

/**
 * What the journal expects the venue's position read to show: the venue's own figure when the
 * fills journaled by the read's start and some choice of those journaled since add up to it (the
 * same search that attributes orders, over the later fills), else everything journaled.
 */
function expectedAtRead(run: ReconciliationRun, marketId: number, venue: string): string | undefined {
  const count = journalCountAtRead(run.options.journal, run.options.account, marketId, run.atMs);
  if (count === undefined) return undefined;
  const signed = count.later.map((f) => ({
    key: f.fillId,
    signedRemainder: decimalToFixed(f.signedSize, SCALE, 'fill'),
  }));
  const all = signed.reduce((sum, f) => sum + f.signedRemainder, decimalToFixed(count.atRead, SCALE, 'position'));
  if (signed.length === 0 || signed.length > MAX_ATTRIBUTION_CANDIDATES) return fixedToDecimal(all, SCALE);
  const move = decimalToFixed(venue, SCALE, 'position') - decimalToFixed(count.atRead, SCALE, 'position');
  return attributeFills(signed, move).kind === 'none' ? fixedToDecimal(all, SCALE) : venue;
}

function attributionCandidate(c: Candidate): AttributionCandidate {
  const remainder = decimalToFixed(addDecimals(c.order.size, negateDecimal(c.order.filledSize)), SCALE, 'remainder');
  return { key: c.order.intentId, signedRemainder: c.order.side === 'sell' ? -remainder : remainder };
}

/** No single choice of filled orders explains the move: which of filled or cancelled cannot be told. */
function markUnattributed(run: ReconciliationRun, c: Candidate, attribution: Attribution): void {
  const move =
    attribution.kind === 'ambiguous'
      ? `${attribution.solutions} ways to explain the position move`
      : 'no choice of filled orders explains the position move';
  const reason = `${run.inferred}: ${move}`;
  run.differences.push({ type: 'order_closed_unattributed', intentId: c.order.intentId, orderId: c.orderId, reason });
  run.applyEvent(c.order, { type: 'position_judged', cause: 'position', verdict: 'untold' });
}

/**
 * The one explanation of the move says whether the candidate filled its remainder or nothing: an
 * event the order model applies.
 */
function closeCandidate(run: ReconciliationRun, c: Candidate, filled: boolean): void {
  const remainder = addDecimals(c.order.size, negateDecimal(c.order.filledSize));
  const explanation = filled
    ? 'the position moved by exactly its remainder'
    : 'the position move is explained without it';
  const verdict = filled ? 'filled' : 'cancelled';
  const closed = run.applyEvent(c.order, { type: 'position_judged', cause: 'position', verdict });
  recordCandidateOutcome(run, c, filled);
  // Refused by the model (reported): nothing closed, nothing inferred.
  if (closed.state !== verdict) return;
  if (filled)
    run.differences.push({
      type: 'fill_inferred',
      orderId: c.orderId,
      intentId: c.order.intentId,
      size: remainder,
      price: c.order.price,
      reason: run.inferred,
    });
  run.differences.push({
    type: 'order_closed',
    intentId: c.order.intentId,
    orderId: c.orderId,
    state: verdict,
    reason: `${run.inferred}: ${explanation}`,
  });
  if (filled) journalInferredFill(run, c, remainder);
}

/** A resting order fills at its own price; the fee is not known. */
function journalInferredFill(run: ReconciliationRun, c: Candidate, size: string): void {
  if (!run.options.apply) return;
  run.options.journal.recordFill(
    run.options.account,
    {
      id: reconciledFillId(c.orderId),
      marketId: c.order.marketId,
      orderId: c.orderId,
      intentId: c.order.intentId,
      strategy: c.order.strategy,
      side: c.order.side,
      price: c.order.price,
      size,
    },
    'reconciled',
    run.atMs,
  );
}

/** The outcome of an in-flight placement among the candidates. */
function recordCandidateOutcome(run: ReconciliationRun, c: Candidate, filled: boolean): void {
  if (c.inFlight === undefined) return;
  if (filled || c.fate === 'executed') {
    run.recordOutcome(c.inFlight, {
      type: 'accepted',
      ...(c.order.orderId === undefined ? {} : { orderId: c.order.orderId }),
    });
    return;
  }
  // Never executed, or executed and cancelled: either way it rests nowhere and filled nothing.
  run.recordOutcome(c.inFlight, {
    type: 'failed',
    error: {
      code: 'CLOSED_UNFILLED',
      message: 'not on the book and filled nothing (never executed, or executed and cancelled)',
      hints: [],
    },
  });
}
