import type { Clock } from '../../core/clock.js';
import {
  addDecimals,
  compareDecimals,
  decimalToFixed,
  multiplyUnits,
  negateDecimal,
  normalizeDecimal,
} from '../../core/decimal.js';
import type { IntentOutcome } from '../../engine/intents/intentOutcome.js';
import type { IntentKind, Side } from '../../engine/intents/intents.js';
import { parseNonceState } from '../../engine/nonces/noncePair.js';
import type { OrderState } from '../../engine/tracking/orderTracker.js';
import type { OpenOrder } from '../../venue/schemas/restOrders.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { readAllOpenOrders } from '../../venue/rest/readAllOpenOrders.js';
import type { FillRecord } from '../../venue/schemas/wsFramesPrivate.js';
import { attributeFills, type AttributionCandidate } from './fillAttribution.js';
import { clientOrderIdOf, inFlightFate } from './inFlightFate.js';
import { reconciledFillId, type Journal } from './journal.js';
import type { InFlightIntent, JournalOrder } from './journalRows.js';
import type { BalanceComparison, Difference, ReconciliationReport } from './reconciliationReport.js';
import { describeHistoryOrder, recoverHistoryFills, stateOfHistoryOrder } from './historyFills.js';
import { readVenueHistory, type HistoryReads } from './venueHistory.js';

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
 */
export type UnknownOrderPolicy = 'adopt' | 'cancel' | 'leave';

export interface ReconcileOptions {
  readonly journal: Journal;
  /** Without the history reads (or when they fail other than transiently) fills and fates are inferred. */
  readonly rest: Pick<RestClient, 'openOrders' | 'position' | 'nonceState' | 'markets' | 'crossMarginBalance'> &
    HistoryReads;
  readonly account: string;
  readonly markets: readonly number[];
  readonly clock: Clock;
  readonly trigger: ReconciliationReport['trigger'];
  /** Intents of this run are in flight in this very process: the engine resolves them. */
  readonly currentRunId?: string;
  readonly unknownOrders: UnknownOrderPolicy;
  /** The strategy that adopts an unknown order of a market (policy adopt). */
  readonly adopter?: (marketId: number) => string | undefined;
  /** False: only report (the CLI while a bot may be running); true: resolve into the journal. */
  readonly apply: boolean;
  /**
   * Orders the engine marked cancelled since then (a snapshot no longer listed them: filled or
   * cancelled, it cannot tell) are candidates too; default: since the last position base.
   */
  readonly closedSinceMs?: number;
  /**
   * Counts a fill read from the venue's trade history, once by its id, and says whether it was
   * new: the engine's tracker while it runs (`tracker.onFill(fill, 'history')`, whose fill ledger
   * journals it), so strategies and their budgets hear it too. Default: straight into the journal.
   */
  readonly countHistoryFill?: (fill: FillRecord) => boolean;
  /** Records per page of the history and open-orders reads; default the venue's maximum. */
  readonly pageSize?: number;
}

/** Snapshots of this source are the position base the journaled fills are counted from. */
export const BASE_POSITION_SOURCE = 'base';
const SCALE = 18;
const PLACE_KINDS: ReadonlySet<string> = new Set(['placeLimit', 'placeMarket', 'closePosition']);

interface Candidate {
  readonly order: JournalOrder;
  readonly orderId: string;
  readonly inFlight?: InFlightIntent;
  /** For an in-flight intent: whether its nonce shows it executed, or the venue no longer says. */
  readonly fate?: 'executed' | 'unknowable';
}

export async function reconcileWithVenue(o: ReconcileOptions): Promise<ReconciliationReport> {
  const { journal, account } = o;
  const atMs = o.clock.now();
  const inFlight = journal.inFlightIntents(account).filter((f) => f.runId !== o.currentRunId);
  const live = journal.liveOrders(account);
  const markets = [...new Set([...o.markets, ...inFlight.map((f) => f.marketId), ...live.map((l) => l.marketId)])];
  // Independent reads side by side: every reconnect waits on them before trading resumes.
  const [nonceState, balanceRead, perMarket] = await Promise.all([
    o.rest.nonceState(account),
    o.rest.crossMarginBalance(account),
    Promise.all(
      markets.map((marketId) =>
        Promise.all([
          readAllOpenOrders(o.rest, { account, marketId }, o.pageSize === undefined ? {} : { pageSize: o.pageSize }),
          o.rest.position({ account, market_id: String(marketId) }),
        ]),
      ),
    ),
  ]);
  const nonce = parseNonceState(nonceState);
  const balance = compareBalance(journal, account, balanceRead.balance);
  const venueOpen: OpenOrder[] = [];
  const venuePosition = new Map<
    number,
    { side: Side; size: string; signed: string; avgEntryPrice?: string; marginMode?: string }
  >();
  for (const [i, marketId] of markets.entries()) {
    const [open, p] = perMarket[i]!;
    venueOpen.push(...open.orders);
    const size = (p.size ?? '0').replace(/^-/, '') || '0';
    const side: Side = p.side === 'SELL' || (p.size ?? '').startsWith('-') ? 'sell' : 'buy';
    venuePosition.set(marketId, {
      side,
      size,
      signed: side === 'sell' && compareDecimals(size, '0') !== 0 ? `-${size}` : size,
      ...(p.avg_entry_price === null || p.avg_entry_price === undefined || p.avg_entry_price === ''
        ? {}
        : { avgEntryPrice: p.avg_entry_price }),
      ...(p.margin_mode === null || p.margin_mode === undefined ? {} : { marginMode: String(p.margin_mode) }),
    });
  }
  const openById = new Map(venueOpen.map((v) => [v.order_id.toLowerCase(), v]));
  const openByCoid = new Map(
    venueOpen.flatMap((v) => (v.client_order_id === undefined ? [] : [[v.client_order_id.toString(), v] as const])),
  );
  const coidOf = (f: InFlightIntent) => f.order?.clientOrderId ?? clientOrderIdOf(f);

  const since =
    o.closedSinceMs ??
    Math.min(
      ...markets.map((m) => journal.latestPosition(account, m, BASE_POSITION_SOURCE)?.atMs ?? Number.POSITIVE_INFINITY),
    );
  const cancelledByUs = journal.acceptedCancelTargets(account);
  const closed = Number.isFinite(since)
    ? journal
        .ordersClosedSince(account, 'cancelled', 'engine', since)
        .filter((c) => !cancelledByUs.has(c.intentId) && !cancelledByUs.has(c.orderId?.toLowerCase() ?? ''))
    : [];

  // What only the venue's history tells: the fills of the window the journal may have missed, the
  // fate of every order that left the book unobserved, and placements whose answer was lost.
  const placements = inFlight.filter(
    (f) => PLACE_KINDS.has(f.kind) && f.order !== undefined && !openByCoid.has(coidOf(f) ?? ''),
  );
  const gone = [...live, ...closed].flatMap((c) =>
    c.orderId === undefined || openById.has(c.orderId.toLowerCase()) ? [] : [c.orderId],
  );
  const coids = new Set(placements.flatMap((f) => coidOf(f) ?? []));
  const fillsSinceMs = o.closedSinceMs ?? journal.fillsMissingSince(account, o.currentRunId);
  const history = await readVenueHistory(o.rest, {
    account,
    ...(fillsSinceMs === undefined ? {} : { fillsSinceMs }),
    orderIds: [...gone, ...placements.flatMap((f) => f.order?.orderId ?? [])],
    ...(coids.size === 0
      ? {}
      : { clientOrderIds: { ids: coids, sinceMs: Math.min(...placements.map((f) => f.receivedMs)) } }),
    ...(o.pageSize === undefined ? {} : { pageSize: o.pageSize }),
  });
  const inferred = history.available
    ? "inferred: not in the venue's order history"
    : `inferred: history unavailable (${history.reason})`;

  const differences: Difference[] = [];
  const candidates: Candidate[] = [];
  const handled = new Set<string>();
  let retryAtMs: number | undefined;
  let ok = true;
  const write = (fn: () => void) => {
    if (o.apply) fn();
  };
  const outcome = (f: InFlightIntent, rest: Partial<IntentOutcome> & Pick<IntentOutcome, 'type'>) =>
    write(() =>
      journal.recordOutcome({
        intentId: f.intentId,
        strategy: f.strategy,
        kind: f.kind as IntentKind,
        marketId: f.marketId,
        atMs,
        ...rest,
      } as IntentOutcome),
    );

  for (const f of inFlight) {
    handled.add(f.intentId);
    const isPlace = PLACE_KINDS.has(f.kind);
    const coid = coidOf(f);
    const resting = coid === undefined ? undefined : openByCoid.get(coid);
    if (isPlace && resting !== undefined && f.order !== undefined) {
      write(() =>
        journal.recordOrder(
          account,
          { ...f.order!, orderId: resting.order_id, restingOrderId: resting.resting_order_id, state: 'open' },
          'reconcile',
          atMs,
        ),
      );
      outcome(f, { type: 'accepted', orderId: resting.order_id });
      differences.push({
        type: 'in_flight_resolved',
        intentId: f.intentId,
        kind: f.kind,
        resolution: 'open',
        orderId: resting.order_id,
        reason: `client_order_id ${coid} is open on the venue`,
      });
      continue;
    }
    const found =
      !isPlace || !history.available
        ? undefined
        : ((f.order?.orderId === undefined ? undefined : history.order(f.order.orderId)) ??
          (coid === undefined ? undefined : history.byClientOrderId(coid)));
    const foundState = found === undefined ? undefined : stateOfHistoryOrder(found);
    if (found !== undefined && foundState !== undefined && f.order !== undefined) {
      // Executed: its order is in the venue's history, with its fate.
      const filledSize = maxDecimal(f.order.filledSize, found.filled_size);
      const state: OrderState =
        foundState === 'open' && compareDecimals(filledSize, '0') > 0 ? 'partially_filled' : foundState;
      const order = {
        ...f.order,
        orderId: found.id,
        ...(found.resting_order_id === undefined ? {} : { restingOrderId: found.resting_order_id }),
        state,
        filledSize,
      };
      write(() => journal.recordOrder(account, order, 'reconcile', atMs));
      outcome(f, { type: 'accepted', orderId: found.id });
      differences.push({
        type: 'in_flight_resolved',
        intentId: f.intentId,
        kind: f.kind,
        resolution: foundState,
        orderId: found.id,
        reason: `order history: client_order_id ${coid ?? '-'} is ${describeHistoryOrder(found)}`,
      });
      continue;
    }
    const fate = inFlightFate(f, nonce, Math.floor(atMs / 1000));
    if (fate.kind === 'not_executed') {
      if (f.order !== undefined)
        write(() => journal.recordOrder(account, { ...f.order!, state: 'failed' }, 'reconcile', atMs));
      outcome(f, { type: 'failed', error: { code: 'NOT_EXECUTED', message: fate.reason, hints: [] } });
      differences.push({
        type: 'in_flight_resolved',
        intentId: f.intentId,
        kind: f.kind,
        resolution: 'not_executed',
        reason: fate.reason,
      });
    } else if (fate.kind === 'pending') {
      ok = false;
      retryAtMs = Math.max(retryAtMs ?? 0, fate.retryAtMs);
      differences.push({
        type: 'in_flight_unresolved',
        intentId: f.intentId,
        kind: f.kind,
        reason: fate.reason,
        retryAtMs: fate.retryAtMs,
      });
    } else if (
      isPlace &&
      f.order !== undefined &&
      fate.kind === 'unknowable' &&
      history.available &&
      coid !== undefined
    ) {
      // Its anchor is past, so the nonce cannot say; the order history can: no order has its client_order_id.
      const reason = `no order with client_order_id ${coid} in the venue's order history since it was sent`;
      write(() => journal.recordOrder(account, { ...f.order!, state: 'failed' }, 'reconcile', atMs));
      outcome(f, { type: 'failed', error: { code: 'NOT_EXECUTED', message: reason, hints: [] } });
      differences.push({
        type: 'in_flight_resolved',
        intentId: f.intentId,
        kind: f.kind,
        resolution: 'not_executed',
        reason,
      });
    } else if (isPlace && f.order !== undefined) {
      // Executed (or possibly executed), not resting, and not in the history: judged by the position.
      candidates.push({
        order: f.order,
        orderId: f.order.orderId ?? `coid:${coid ?? f.intentId}`,
        inFlight: f,
        fate: fate.kind === 'executed' ? 'executed' : 'unknowable',
      });
    } else if (fate.kind === 'executed') {
      outcome(f, { type: 'accepted' });
      differences.push({
        type: 'in_flight_resolved',
        intentId: f.intentId,
        kind: f.kind,
        resolution: 'executed',
        reason: fate.reason,
      });
    } else {
      differences.push({ type: 'in_flight_unresolved', intentId: f.intentId, kind: f.kind, reason: fate.reason });
    }
  }

  for (const order of [...live, ...closed]) {
    if (handled.has(order.intentId) || order.orderId === undefined) continue;
    handled.add(order.intentId);
    if (openById.has(order.orderId.toLowerCase())) continue;
    const record = history.available ? history.order(order.orderId) : undefined;
    const recordState = record === undefined ? undefined : stateOfHistoryOrder(record);
    if (record !== undefined && recordState !== undefined) {
      // The venue's order history says what became of it; still OPEN there (a read between two
      // events) leaves the journal as it is.
      if (recordState === 'open') continue;
      const filledSize = maxDecimal(order.filledSize, record.filled_size);
      if (order.state === recordState && compareDecimals(filledSize, order.filledSize) === 0) continue;
      differences.push({
        type: 'order_closed',
        intentId: order.intentId,
        orderId: order.orderId,
        state: recordState,
        reason: `order history: ${describeHistoryOrder(record)}`,
      });
      write(() => journal.recordOrder(account, { ...order, state: recordState, filledSize }, 'reconcile', atMs));
      continue;
    }
    if (compareDecimals(order.filledSize, order.size) >= 0) {
      write(() => journal.recordOrder(account, { ...order, state: 'filled' }, 'reconcile', atMs));
      continue;
    }
    candidates.push({ order, orderId: order.orderId });
  }

  // Fills the channel missed, with their real ids, prices and fees, each counted once by id.
  if (history.available)
    differences.push(
      ...recoverHistoryFills(
        journal,
        account,
        history.fills,
        o.apply ? (o.countHistoryFill ?? 'journal') : 'report',
        atMs,
      ),
    );

  for (const marketId of markets) {
    const venue = venuePosition.get(marketId);
    if (venue === undefined) continue;
    const inMarket = candidates.filter((c) => c.order.marketId === marketId);
    const base = journal.latestPosition(account, marketId, BASE_POSITION_SOURCE);
    const expected =
      base === undefined ? undefined : expectedPosition(journal, account, marketId, base.side, base.size, base.fillSeq);
    const unexplained =
      expected === undefined
        ? undefined
        : decimalToFixed(venue.signed, SCALE, 'position') - decimalToFixed(expected, SCALE, 'position');
    if (inMarket.length > 0) {
      const attribution =
        unexplained === undefined
          ? ({ kind: 'none' } as const)
          : attributeFills(
              inMarket.map((c): AttributionCandidate => {
                const remainder = decimalToFixed(
                  addDecimals(c.order.size, negateDecimal(c.order.filledSize)),
                  SCALE,
                  'remainder',
                );
                return { key: c.order.intentId, signedRemainder: c.order.side === 'sell' ? -remainder : remainder };
              }),
              unexplained,
            );
      if (attribution.kind === 'unique') {
        for (const c of inMarket) {
          const filled = attribution.filled.includes(c.order.intentId);
          closeCandidate(o, c, filled, atMs, differences, inferred);
        }
        continue;
      }
      for (const c of inMarket) {
        const move =
          attribution.kind === 'ambiguous'
            ? `${attribution.solutions} ways to explain the position move`
            : 'no choice of filled orders explains the position move';
        const reason = `${inferred}: ${move}`;
        differences.push({ type: 'order_closed_unattributed', intentId: c.order.intentId, orderId: c.orderId, reason });
        write(() => journal.recordOrder(account, { ...c.order, state: 'unknown' }, 'reconcile', atMs));
      }
    }
    if (unexplained !== undefined && unexplained !== 0n && expected !== undefined) {
      const closedHere = inMarket.length > 0;
      differences.push({
        type: 'position_unexplained',
        marketId,
        expected,
        venue: venue.signed,
        reason:
          (closedHere
            ? 'orders left the book and the move does not single out which filled'
            : 'fills the journal has not seen (a partial fill of a resting order, or another client of this account)') +
          (history.available ? '' : ` (${inferred})`),
      });
    }
  }

  const toCancel: { orderId: string; marketId: number }[] = [];
  let marketConfigs: Map<number, { step_size: string; step_price: string }> | undefined;
  for (const v of venueOpen) {
    const known = journal.orderByOrderId(v.order_id);
    if (known !== undefined && known.account === account.toLowerCase()) {
      if (known.state !== 'open' && known.state !== 'partially_filled')
        write(() => journal.recordOrder(account, { ...known, state: 'open' }, 'reconcile', atMs));
      continue;
    }
    if (
      v.client_order_id !== undefined &&
      inFlight.some((f) => (f.order?.clientOrderId ?? clientOrderIdOf(f)) === v.client_order_id!.toString())
    )
      continue;
    const marketId = Number(v.market_id);
    const strategy = o.unknownOrders === 'adopt' ? o.adopter?.(marketId) : undefined;
    const action = o.unknownOrders === 'adopt' && strategy === undefined ? 'leave' : o.unknownOrders;
    differences.push({
      type: 'unknown_open_order',
      orderId: v.order_id,
      marketId,
      action,
      ...(strategy === undefined ? {} : { strategy }),
    });
    if (action === 'cancel') toCancel.push({ orderId: v.order_id, marketId });
    if (action === 'adopt' && strategy !== undefined && o.apply) {
      marketConfigs ??= new Map((await o.rest.markets()).markets.map((m) => [Number(m.market_id), m.config]));
      const config = marketConfigs.get(marketId);
      if (config === undefined) continue;
      write(() =>
        journal.recordOrder(
          account,
          {
            intentId: `adopted-${v.order_id.toLowerCase()}`,
            strategy,
            marketId,
            side: v.side === 0 ? 'buy' : 'sell',
            size: multiplyUnits(BigInt(v.size_steps), config.step_size, 'step_size'),
            price: multiplyUnits(BigInt(v.price_ticks), config.step_price, 'step_price'),
            ...(v.client_order_id === undefined ? {} : { clientOrderId: v.client_order_id.toString() }),
            orderId: v.order_id,
            restingOrderId: v.resting_order_id.toString(),
            state: 'open',
            filledSize: '0',
          },
          'adopted',
          atMs,
        ),
      );
    }
  }

  if (o.trigger === 'start') {
    for (const [marketId, p] of venuePosition) {
      write(() =>
        journal.recordPosition(
          account,
          {
            marketId,
            side: p.side,
            size: p.size,
            ...(p.avgEntryPrice === undefined ? {} : { avgEntryPrice: p.avgEntryPrice }),
            ...(p.marginMode === undefined ? {} : { marginMode: p.marginMode }),
          },
          BASE_POSITION_SOURCE,
          atMs,
        ),
      );
    }
  }
  write(() => journal.recordBalance(account, balance.venue, o.trigger, atMs));
  // Every fill since the window's start is journaled now: the next start need not read back past it.
  if (history.available && fillsSinceMs !== undefined) write(() => journal.closeFillGaps(account, fillsSinceMs, atMs));
  write(() => journal.recordReconciliation(account, o.currentRunId, o.trigger, ok, differences, atMs));
  return {
    trigger: o.trigger,
    ok,
    differences,
    balance,
    toCancel,
    ...(retryAtMs === undefined ? {} : { retryAtMs }),
    ...(history.available ? {} : { historyUnavailable: history.reason }),
    atMs,
  };
}

/** The venue's balance against the last journaled snapshot. */
export function compareBalance(journal: Journal, account: string, venueBalance: string): BalanceComparison {
  const venue = normalizeDecimal(venueBalance, 'balance');
  const last = journal.latestBalance(account);
  if (last === undefined) return { venue };
  return {
    venue,
    journaled: last.balance,
    journaledAtMs: last.atMs,
    change: addDecimals(venue, negateDecimal(last.balance), 'balance'),
  };
}

function closeCandidate(
  o: ReconcileOptions,
  c: Candidate,
  filled: boolean,
  atMs: number,
  differences: Difference[],
  inferred: string,
): void {
  const { journal, account } = o;
  const remainder = addDecimals(c.order.size, negateDecimal(c.order.filledSize));
  const reason = `${inferred}: ${filled ? 'the position moved by exactly its remainder' : 'the position move is explained without it'}`;
  if (filled)
    differences.push({
      type: 'fill_inferred',
      orderId: c.orderId,
      intentId: c.order.intentId,
      size: remainder,
      price: c.order.price,
      reason: inferred,
    });
  differences.push({
    type: 'order_closed',
    intentId: c.order.intentId,
    orderId: c.orderId,
    state: filled ? 'filled' : 'cancelled',
    reason,
  });
  if (!o.apply) return;
  if (filled) {
    // A resting order fills at its own price; the fee is not known.
    journal.recordFill(
      account,
      {
        id: reconciledFillId(c.orderId),
        marketId: c.order.marketId,
        orderId: c.orderId,
        intentId: c.order.intentId,
        strategy: c.order.strategy,
        side: c.order.side,
        price: c.order.price,
        size: remainder,
      },
      'reconciled',
      atMs,
    );
  }
  journal.recordOrder(
    account,
    { ...c.order, state: filled ? 'filled' : 'cancelled', filledSize: filled ? c.order.size : c.order.filledSize },
    'reconcile',
    atMs,
  );
  if (c.inFlight !== undefined) {
    const f = c.inFlight;
    const base = { intentId: f.intentId, strategy: f.strategy, kind: f.kind as IntentKind, marketId: f.marketId, atMs };
    if (filled || c.fate === 'executed')
      journal.recordOutcome({
        ...base,
        type: 'accepted',
        ...(c.order.orderId === undefined ? {} : { orderId: c.order.orderId }),
      });
    else {
      // Never executed, or executed and cancelled: either way it rests nowhere and filled nothing.
      journal.recordOutcome({
        ...base,
        type: 'failed',
        error: {
          code: 'CLOSED_UNFILLED',
          message: 'not on the book and filled nothing (never executed, or executed and cancelled)',
          hints: [],
        },
      });
    }
  }
}

/** The base snapshot plus every fill journaled after it, as a signed decimal. */
function expectedPosition(
  journal: Journal,
  account: string,
  marketId: number,
  side: Side,
  size: string,
  fillSeq: number,
): string {
  let signed = side === 'sell' && compareDecimals(size, '0') !== 0 ? `-${size}` : size;
  for (const fill of journal.fillsAfter(account, marketId, fillSeq))
    signed = addDecimals(signed, fill.side === 'sell' ? negateDecimal(fill.size) : fill.size);
  return signed;
}

function maxDecimal(a: string, b: string): string {
  return compareDecimals(a, b) >= 0 ? a : b;
}
