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

/** report.json's bytes: what `perpbot replay` writes and a sweep writes and hashes for each variant. */
export function replayReportText(report: ReplayReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
