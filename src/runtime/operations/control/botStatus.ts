import type { QuoteUptimeView } from '../../../engine/quoting/quoteUptime.js';
import type { TradingMode } from '../../../engine/admission/tradingConditions.js';
import type { FreshnessBudget } from '../../../strategy/strategyDefinition.js';
import type { StaleFeed } from '../../freshness/freshnessBudgets.js';
import type { AccountDisplay, PnlDisplay, PositionDisplay } from './statusDisplay.js';

/**
 * What a running bot reports about itself: `/api/status`, the dashboard, the metrics' gauges, the
 * terminal's status line and `perpbot status` all read this one shape. Money and sizes are exact
 * decimal strings (USDC at the venue's 18 decimals); each `display` beside them holds the same
 * figures as every screen prints them (statusDisplay.ts: USDC to 6 places, prices to the market's
 * tick, half to even). Times are engine-clock milliseconds with an ISO copy where a person reads
 * them. No key, signature or token is ever part of it (addresses are public).
 *
 * The account is valued one way (engine/ledger/accountValuation.ts), by average entry as the venue
 * values it, and its figures reconcile exactly:
 *   balanceChange = balance − openingBalance = pnl.realisedPnl − pnl.fees + otherBalanceChange
 *   equity = balance + pnl.unrealisedPnl; pnl.netPnl = pnl.realisedPnl + pnl.unrealisedPnl − pnl.fees
 * and pnl.unrealisedPnl is the sum of the positions' unrealisedPnl.
 */
export interface BotStatus {
  readonly version: 1;
  /** Bumped on every snapshot: the dashboard shows which one it rendered. */
  readonly seq: number;
  readonly generatedAtMs: number;
  readonly generatedAt: string;
  readonly account: string;
  readonly signer: string;
  readonly runId: string;
  readonly startedAt: string;
  readonly uptimeSeconds: number;
  readonly dryRun: boolean;
  readonly phase: 'running' | 'stopping';
  readonly mode: TradingMode;
  readonly ready: Readiness;
  readonly degraded: DegradedStatus;
  readonly killSwitch: { readonly tripped: boolean; readonly reason?: string };
  /** The account's kill switch trips when `pnl.netPnl` falls to minus this (risk.kill_switch.max_loss, USDC). */
  readonly lossLimit: string;
  readonly journal: JournalStatus;
  readonly connection: { readonly status: string; readonly reason?: string; readonly reconnects: number };
  /** Busy polling (`busy_poll:`): off, spinning while frames arrive (a core at 100 %), or parked between bursts. */
  readonly busyPoll: 'off' | 'spinning' | 'parked';
  /** Cross-margin balance (USDC), the venue's; null until the venue reported one. */
  readonly balance: string | null;
  /** The balance when this session began (the engine's first reconciliation); null if the venue gave none. */
  readonly openingBalance: string | null;
  /** balance − openingBalance. */
  readonly balanceChange: string | null;
  /**
   * What moved the balance besides this session's fills and fees: funding, deposits, withdrawals,
   * or a fill the ledger did not book (balanceChange − (pnl.realisedPnl − pnl.fees)).
   */
  readonly otherBalanceChange: string | null;
  /** balance + pnl.unrealisedPnl; null while the balance is unknown or a position has no mark. */
  readonly equity: string | null;
  /**
   * The account's PnL in this session from the engine's ledger (fills and fees, by average entry,
   * at the marks; positions held at start count from their entry price), as the account's kill
   * switch judges it; null while a market with a position has no mark.
   */
  readonly pnl: PnlStatus | null;
  /** Fills of orders this process did not place (in `pnl`, attributed to no strategy). */
  readonly unattributed: {
    readonly fills: number;
    readonly pnl: PnlStatus | null;
    readonly display: { readonly pnl: PnlDisplay | null };
  };
  /** The account's open positions as the ledger values them (their unrealisedPnl add up to pnl's). */
  readonly positions: readonly PositionStatus[];
  readonly openOrders: readonly OrderStatus[];
  /** The last fills, newest first. */
  readonly recentFills: readonly FillStatus[];
  readonly strategies: readonly StrategyStatusView[];
  readonly streams: readonly StreamStatus[];
  /** The account's money figures as screens show them: one statement that adds up to the last digit. */
  readonly display: AccountDisplay;
  /** The strategies' TP/SL orders on the venue (`protection:`); null when no strategy is protected. */
  readonly protection: ProtectionStatus | null;
}

/**
 * The protection keeper's view (src/engine/protection): each protected position, whether the
 * venue holds its stops (an emulated stop does not count: it dies with the process), and the
 * live TP/SL orders.
 */
export interface ProtectionStatus {
  /** Why the venue refuses TP/SL orders (the stops are emulated by this process), or null. */
  readonly venueRefusal: string | null;
  /** What is wrong with the OperatorHub budget the executions spend (none, expiring, too low), or null. */
  readonly budgetWarning: string | null;
  readonly positions: readonly ProtectedPositionStatus[];
  readonly orders: readonly TpslOrderStatus[];
}

export interface ProtectedPositionStatus {
  readonly strategy: string;
  readonly marketId: number;
  /** A position without its venue stops for longer than `protection.grace_ms`. */
  readonly unprotected: boolean;
  readonly unprotectedSinceMs: number | null;
  readonly emulated: boolean;
}

export interface TpslOrderStatus {
  readonly id: string;
  readonly venueId: string | null;
  readonly strategy: string;
  readonly marketId: number;
  readonly role: 'stop_loss' | 'take_profit';
  readonly side: 'BUY' | 'SELL';
  readonly size: string;
  readonly stopPrice: string;
  readonly trigger: 'mark' | 'last';
  readonly state: string;
}

/** Whether the journal takes writes; while it does not, records wait in memory and in the fallback file. */
export interface JournalStatus {
  /** False while the journal cannot be written (JOURNAL_DOWN): the bot opens nothing and keeps what it writes aside. */
  readonly writable: boolean;
  /** Records not yet in the journal (kept in memory, appended to `fallbackFile`). */
  readonly keptRecords: number;
  readonly fallbackFile: string;
}

export interface Readiness {
  /** Trading: connected, reconciled, not degraded, kill switch armed. */
  readonly ready: boolean;
  /** Why not (empty when ready). */
  readonly reasons: readonly string[];
  /** Not reasons to take the bot out of rotation, but worth a look (a strategy reduce-only on a late stream). */
  readonly warnings: readonly string[];
}

export interface DegradedStatus {
  readonly active: boolean;
  readonly reasons: readonly string[];
  readonly reconciling: boolean;
  /** When the current mode began (engine clock). */
  readonly sinceMs: number;
  readonly periods: number;
  readonly longestMs: number;
  /** Time spent degraded so far, the current period included. */
  readonly totalMs: number;
}

/** Exact USDC decimals from the ledger (engine/ledger/pnlView.ts): every reader shows the same digits. */
export interface PnlStatus {
  /** What reduced positions made, against their average entry. */
  readonly realisedPnl: string;
  /** The open positions at the mark. */
  readonly unrealisedPnl: string;
  /** Fees paid, positive (a rebate lowers it). */
  readonly fees: string;
  /** realisedPnl + unrealisedPnl − fees: what the kill switch judges. */
  readonly netPnl: string;
}

export interface PositionStatus {
  readonly marketId: number;
  readonly side: 'buy' | 'sell';
  readonly size: string;
  /** Long positive, short negative. */
  readonly signedSize: string;
  readonly avgEntryPrice: string;
  readonly markPrice: string | null;
  /** (mark − avgEntryPrice) × signed size; null without a mark. */
  readonly unrealisedPnl: string | null;
  readonly display: PositionDisplay;
}

export interface OrderStatus {
  readonly intentId: string;
  readonly strategy: string;
  readonly marketId: number;
  readonly side: 'buy' | 'sell';
  readonly size: string;
  readonly price: string;
  readonly filledSize: string;
  readonly state: string;
  readonly orderId: string | null;
  /** `orderId` as tables show it (core/shortId: its leading zero bytes dropped, head and tail), for the dashboard. */
  readonly orderIdShort: string | null;
  /** `price` at the market's tick. */
  readonly display: { readonly price: string };
}

export interface FillStatus {
  readonly id: string;
  readonly atMs: number;
  readonly strategy: string | null;
  readonly marketId: number;
  readonly side: 'buy' | 'sell';
  readonly price: string;
  readonly size: string;
  readonly fee: string;
  readonly liquidity: string;
  /** `price` at the market's tick, `fee` in USDC to 6 places. */
  readonly display: { readonly price: string; readonly fee: string };
}

export type { QuoteUptimeView };

export interface StrategyStatusView {
  readonly name: string;
  /** The host's word: running, stopped, failed... */
  readonly status: string;
  readonly markets: readonly number[];
  readonly openOrders: number;
  /** Net positions of its own fills in this run. */
  readonly positions: readonly { readonly marketId: number; readonly signedSize: string }[];
  /** On its own fills at the current marks; null while a mark is missing. */
  readonly pnl: PnlStatus | null;
  readonly display: { readonly pnl: PnlDisplay | null };
  readonly killSwitch: { readonly tripped: boolean; readonly reason?: string };
  /** Its kill switch trips when its own `pnl.netPnl` falls to minus this (its effective kill_switch.max_loss, USDC). */
  readonly lossLimit: string;
  readonly feed: {
    readonly stale: boolean;
    readonly budgets: FreshnessBudget;
    readonly staleFeeds: readonly StaleFeed[];
  };
  /** Per market it quoted on: how much of the time the venue held what it wanted (the engine's `QuoteUptime`). */
  readonly quoteUptime: readonly QuoteUptimeStatus[];
}

/** A strategy's quote uptime on one market, as the engine measures it. */
export type QuoteUptimeStatus = Omit<QuoteUptimeView, 'strategy'>;

export interface StreamStatus {
  readonly channel: string;
  readonly marketId?: number;
  readonly lastAtMs: number | null;
  readonly ageMs: number;
  /** The tightest budget a strategy declared on it, if any. */
  readonly budgetMs?: number;
  readonly stale: boolean;
}
