import type { TpslState } from '../../engine/orders/tpslState.js';
import type { QuoteUptimeStatus } from '../operations/control/botStatus.js';
/**
 * What `perpbot replay` writes to report.json (and what the HTML page is drawn from). Money is an
 * exact decimal string in USDC, `t` is recording time (unix ms), and nothing in it depends on the
 * wall clock or on where the files are, so replaying one recording twice writes the same bytes.
 */
export interface ReplayReport {
  readonly version: 1;
  readonly recording: {
    readonly run: string;
    readonly startMs: number;
    readonly endMs: number;
    readonly markets: readonly number[];
    readonly frames: number;
    /** Frames the bot's decoders refused (malformed: a NaN or negative price, a missing field). */
    readonly refusedFrames: number;
    /** Frames only of markets the recording's header does not list. */
    readonly foreignFrames: number;
  };
  readonly options: { readonly latencyMs: number; readonly makerFeeBps: string; readonly takerFeeBps: string };
  readonly strategies: readonly {
    readonly name: string;
    readonly module: string;
    readonly markets: readonly number[];
    /** Per market it quoted on, up to the recording's end (before the shutdown's cancels). */
    readonly quoteUptime: readonly QuoteUptimeStatus[];
    /** Its TP/SL orders on the venue: only for a strategy with `protection:`. */
    readonly stops?: ReplayStops;
  }[];
  readonly totals: {
    readonly orders: number;
    readonly fills: number;
    readonly volume: string;
    readonly fees: string;
    readonly realisedPnl: string;
    readonly unrealisedPnl: string;
    readonly netPnl: string;
    readonly maxDrawdown: string;
  };
  readonly series: {
    readonly equity: readonly { readonly t: number; readonly value: string }[];
    readonly position: readonly { readonly t: number; readonly marketId: number; readonly size: string }[];
    readonly price: readonly { readonly t: number; readonly marketId: number; readonly mark: string }[];
    readonly fills: readonly ReplayFill[];
  };
}

/** One fill of the replayed account, as the engine booked it. */
export interface ReplayFill {
  readonly t: number;
  readonly marketId: number;
  readonly side: 'buy' | 'sell';
  readonly price: string;
  readonly size: string;
  readonly fee: string;
  readonly liquidity: 'maker' | 'taker';
}

/**
 * A protected strategy's TP/SL orders in the replay, as the engine's protection kept them on the
 * replay's venue: each one placed (a resize places the new one, then cancels the old), those that
 * fired and what their executions filled, with the strategy's realised PnL and fees from them.
 */
export interface ReplayStops {
  /** Orders the venue accepted. */
  readonly placed: number;
  /** Orders that fired on the venue (executed, or executing at the end). */
  readonly triggered: number;
  readonly executed: number;
  /** Cancelled by the engine (resized, the position flat, its pair fired) or by the venue (nothing to reduce). */
  readonly cancelled: number;
  /** Never held by the venue. */
  readonly refused: number;
  /** What the executions filled (their fills attributed to the strategy), in the base asset, over every market. */
  readonly executedSize: string;
  /** What the executions' fills changed the strategy's realised PnL by (before fees). */
  readonly realisedPnl: string;
  readonly fees: string;
  readonly orders: readonly ReplayStop[];
}

/** One TP/SL order: what it was, what became of it, and the fills of its execution. */
export interface ReplayStop {
  /** The engine's id of it (an execution's fills carry it as their intent). */
  readonly id: string;
  readonly venueId: string | null;
  readonly marketId: number;
  readonly role: 'stop_loss' | 'take_profit';
  /** The execution's side: sell closes a long. */
  readonly side: 'buy' | 'sell';
  readonly size: string;
  readonly stopPrice: string;
  readonly trigger: 'mark' | 'last';
  /** Its state at the end of the replay (after the shutdown, per `shutdown.protection`). */
  readonly state: TpslState;
  /** When the venue accepted it, and when it ended (executed, cancelled, refused); null: not (yet). */
  readonly placedT: number | null;
  readonly endT: number | null;
  /** The mark or last price that fired it, as the venue reports it. */
  readonly triggeredPrice: string | null;
  /** Its execution's fills attributed to the strategy, summed. */
  readonly filledSize: string;
  readonly realisedPnl: string;
  readonly fees: string;
  readonly fills: readonly ReplayStopFill[];
  /** Why it was cancelled by the venue or refused, when it says. */
  readonly reason: string | null;
}

/** A fill of a TP/SL's execution, attributed to the protected strategy. */
export interface ReplayStopFill {
  readonly t: number;
  readonly price: string;
  readonly size: string;
  readonly fee: string;
  /** The strategy's realised PnL after the fill less before it (the ledger's, before fees). */
  readonly realisedPnl: string;
}

/** report.json's bytes: what `perpbot replay` writes and a sweep writes and hashes for each variant. */
export function replayReportText(report: ReplayReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
