import { Subscription, type Observable } from 'rxjs';
import type { BusyPollState } from '../../../core/busyPoll.js';
import type { Clock } from '../../../core/clock.js';
import { negateDecimal } from '../../../core/decimal.js';
import { shortId } from '../../../core/shortId.js';
import { isDegraded, type TradingState } from '../../../engine/admission/tradingConditions.js';
import type { SessionLedger } from '../../../engine/ledger/sessionLedger.js';
import type { TrackedFill, TrackedOrder } from '../../../engine/tracking/orderTracker.js';
import type { ConnectionState } from '../../../venue/ws/connectionState.js';
import type { FeedClock } from '../../freshness/feedClock.js';
import { describeStale, type FreshnessBudgets } from '../../freshness/freshnessBudgets.js';
import type {
  BotStatus,
  DegradedStatus,
  FillStatus,
  JournalStatus,
  OrderStatus,
  QuoteUptimeView,
  StrategyStatusView,
  StreamStatus,
  ProtectionStatus,
} from './botStatus.js';
import { EquityHistory, type EquityPoint } from './equityHistory.js';
import { moneyStatus, pnlWithDisplay } from './moneyStatus.js';
import { readinessOf } from './readiness.js';
import { price, pricePlacesOf, usdc } from './statusDisplay.js';

/** What the monitor reads of the engine (the Engine satisfies it). */
export interface MonitoredEngine {
  readonly tracker: {
    openOrders(): readonly TrackedOrder[];
    currentBalance(): string | undefined;
  };
  readonly killSwitch: { readonly tripped: boolean; readonly reason?: string };
  readonly conditions: { readonly state: TradingState };
  readonly degradedStats: { readonly periods: number; readonly longestMs: number };
  /** A market's record: its mark and the tick its prices are shown to. */
  market(
    marketId: number,
  ): { readonly mark_price: string; readonly config?: { readonly step_price?: string } } | undefined;
  /** The one ledger of fills and PnL: the account's valuation, each strategy's figures and positions. */
  readonly ledger: Pick<
    SessionLedger,
    'accountPnl' | 'accountPositionValues' | 'openingBalance' | 'strategyPnl' | 'strategyPositions' | 'unattributed'
  >;
  readonly fills$: Observable<TrackedFill>;
  readonly tradingState$: Observable<TradingState>;
  /** Quote uptime per strategy and market. */
  readonly quoting: { readonly uptime: { views(): readonly QuoteUptimeView[] } };
}

/** What the monitor reads of the strategies' budgets (budgetedExecution satisfies it). */
export interface MonitoredBudgets {
  killSwitch(strategy: string): { readonly tripped: boolean; readonly reason?: string } | undefined;
}

export interface BotMonitorOptions {
  readonly account: string;
  readonly signer: string;
  readonly runId: string;
  readonly dryRun: boolean;
  readonly clock: Clock;
  readonly engine: MonitoredEngine;
  readonly budgets: MonitoredBudgets;
  readonly strategies: readonly { readonly name: string; readonly markets: readonly number[] }[];
  readonly strategyStatuses: () => ReadonlyMap<string, string>;
  readonly freshness: FreshnessBudgets;
  readonly feeds: FeedClock;
  readonly connection$: Observable<ConnectionState>;
  /** WebSocket reconnects so far. */
  readonly reconnects: () => number;
  /** The busy poll's state ('stopped' when the bot has none). */
  readonly busyPoll: () => BusyPollState;
  /** How many fills `recentFills` keeps (default 50). */
  readonly fillsKept?: number;
  /** The loss each kill switch trips at (USDC): the account's, and each strategy's effective one. */
  readonly lossLimits: { readonly account: string; strategy(name: string): string };
  /** The journal's state (the bot's ResilientEngineJournal satisfies it). */
  readonly journal: JournalState;
  /** The protection keeper's view, when a strategy is protected. */
  readonly protection?: (() => ProtectionStatus | null) | undefined;
}

/** What the monitor reads of the journal. */
export interface JournalState {
  readonly isDown: boolean;
  readonly keptCount: number;
  readonly fallbackFile: string;
}

function busyPollView(state: BusyPollState): BotStatus['busyPoll'] {
  return state === 'stopped' ? 'off' : state;
}

/**
 * The running bot as one snapshot (`status()`): what the control server, the dashboard, the
 * metrics' gauges and the terminal read. It keeps only what the engine does not: the last fills
 * with their arrival time, the connection state, time spent degraded, and the equity curve.
 */
export class BotMonitor {
  private readonly subscriptions = new Subscription();
  private readonly fills: FillStatus[] = [];
  private connection: ConnectionState = { status: 'connecting', connections: 0 };
  private degradedSince: number | undefined;
  private degradedDoneMs = 0;
  private seq = 0;
  private phase: 'running' | 'stopping' = 'running';
  private readonly startedAtMs: number;
  private readonly history = new EquityHistory();

  constructor(private readonly options: BotMonitorOptions) {
    this.startedAtMs = options.clock.now();
    const kept = options.fillsKept ?? 50;
    this.subscriptions.add(options.connection$.subscribe((state) => (this.connection = state)));
    this.subscriptions.add(
      options.engine.fills$.subscribe((f) => {
        const places = this.pricePlaces(f.marketId);
        this.fills.unshift({
          id: f.id,
          atMs: options.clock.now(),
          strategy: f.strategy ?? null,
          marketId: f.marketId,
          side: f.side,
          price: f.price,
          size: f.size,
          fee: f.fee,
          liquidity: f.liquidity,
          display: { price: price(f.price, places), fee: usdc(f.fee) },
        });
        if (this.fills.length > kept) this.fills.length = kept;
      }),
    );
    this.subscriptions.add(
      options.engine.tradingState$.subscribe((state) => {
        const now = options.clock.now();
        if (!isDegraded(state) && this.degradedSince !== undefined) {
          this.degradedDoneMs += now - this.degradedSince;
          this.degradedSince = undefined;
        } else if (isDegraded(state) && this.degradedSince === undefined) {
          this.degradedSince = now;
        }
      }),
    );
  }

  /** From now on /ready says the bot is stopping. */
  stopping(): void {
    this.phase = 'stopping';
  }

  close(): void {
    this.subscriptions.unsubscribe();
  }

  /** Samples the equity curve (at most once per its interval); call it on a timer. */
  sample(): void {
    // The snapshot is built only when the curve wants a point (every second or coarser), not on every tick.
    const last = this.history.all().at(-1);
    if (last !== undefined && this.options.clock.now() - last.t < this.history.intervalMs) return;
    const status = this.status();
    this.history.offer({ t: status.generatedAtMs, equity: status.equity, netPnl: status.pnl?.netPnl ?? null });
  }

  equityHistory(): readonly EquityPoint[] {
    return this.history.all();
  }

  status(): BotStatus {
    const { engine, clock } = this.options;
    const now = clock.now();
    const trading = engine.conditions.state;
    const money = moneyStatus(engine.ledger, engine.tracker.currentBalance(), (id) => this.pricePlaces(id));
    const uptime = engine.quoting.uptime.views();
    const strategies = this.options.strategies.map((s) =>
      this.strategy(s.name, s.markets, trading.mode === 'halted', uptime),
    );
    const killSwitch = engine.killSwitch;
    const protection = this.options.protection?.() ?? null;
    const warnings = [...strategies.flatMap(warningsOf), ...protectionWarnings(protection)];
    return {
      version: 1,
      seq: ++this.seq,
      generatedAtMs: now,
      generatedAt: new Date(now).toISOString(),
      account: this.options.account,
      signer: this.options.signer,
      runId: this.options.runId,
      startedAt: new Date(this.startedAtMs).toISOString(),
      uptimeSeconds: Math.floor((now - this.startedAtMs) / 1000),
      dryRun: this.options.dryRun,
      phase: this.phase,
      mode: trading.mode,
      ready: readinessOf({ phase: this.phase, connection: this.connection, trading, killSwitch, warnings }),
      degraded: this.degraded(trading, now),
      killSwitch: {
        tripped: killSwitch.tripped,
        ...(killSwitch.reason === undefined ? {} : { reason: killSwitch.reason }),
      },
      lossLimit: this.options.lossLimits.account,
      journal: this.journal(),
      connection: {
        status: this.connection.status,
        ...(this.connection.reason === undefined ? {} : { reason: this.connection.reason }),
        reconnects: this.options.reconnects(),
      },
      busyPoll: busyPollView(this.options.busyPoll()),
      balance: money.balance,
      openingBalance: money.openingBalance,
      balanceChange: money.balanceChange,
      otherBalanceChange: money.otherBalanceChange,
      equity: money.equity,
      pnl: money.pnl,
      unattributed: this.unattributed(),
      positions: money.positions,
      openOrders: engine.tracker.openOrders().map((o) => openOrderStatus(o, this.pricePlaces(o.marketId))),
      recentFills: [...this.fills],
      strategies,
      streams: this.streams(),
      display: money.display,
      protection,
    };
  }

  private degraded(trading: TradingState, now: number): DegradedStatus {
    const { periods, longestMs } = this.options.engine.degradedStats;
    return {
      active: isDegraded(trading),
      reasons: trading.reasons,
      reconciling: trading.reconciling,
      sinceMs: trading.sinceMs,
      periods,
      longestMs,
      totalMs: this.degradedDoneMs + (this.degradedSince === undefined ? 0 : now - this.degradedSince),
    };
  }

  /** The places a market's prices are shown with (its tick's); undefined for a market not known. */
  private pricePlaces(marketId: number): number | undefined {
    return pricePlacesOf(this.options.engine.market(marketId));
  }

  private strategy(
    name: string,
    markets: readonly number[],
    accountHalted: boolean,
    uptime: readonly QuoteUptimeView[],
  ): StrategyStatusView {
    const { budgets, freshness, engine } = this.options;
    const kill = budgets.killSwitch(name) ?? { tripped: false };
    const staleFeeds = freshness.staleFeeds(name);
    const hostStatus = this.options.strategyStatuses().get(name) ?? 'starting';
    return {
      name,
      status: haltedOr(hostStatus, accountHalted || kill.tripped),
      markets,
      openOrders: engine.tracker.openOrders().filter((o) => o.strategy === name).length,
      positions: [...engine.ledger.strategyPositions(name)].map(([marketId, p]) => ({
        marketId,
        signedSize: p.side === 'buy' ? p.size : negateDecimal(p.size),
      })),
      ...pnlWithDisplay(engine.ledger.strategyPnl(name)),
      killSwitch: { tripped: kill.tripped, ...(kill.reason === undefined ? {} : { reason: kill.reason }) },
      lossLimit: this.options.lossLimits.strategy(name),
      feed: { stale: staleFeeds.length > 0, budgets: freshness.budgetOf(name) ?? {}, staleFeeds },
      quoteUptime: uptime.filter((u) => u.strategy === name).map(({ strategy: _strategy, ...rest }) => rest),
    };
  }

  private journal(): JournalStatus {
    const { journal } = this.options;
    return { writable: !journal.isDown, keptRecords: journal.keptCount, fallbackFile: journal.fallbackFile };
  }

  /** Fills of orders this process did not place: counted in the account's PnL, shown apart. */
  private unattributed(): BotStatus['unattributed'] {
    const { fills, pnl } = this.options.engine.ledger.unattributed();
    return { fills, ...pnlWithDisplay(pnl) };
  }

  private streams(): StreamStatus[] {
    const budgets = new Map<string, number>();
    for (const s of this.options.strategies) {
      const budget = this.options.freshness.budgetOf(s.name) ?? {};
      for (const [channel, ms] of Object.entries(budget)) {
        if (ms === undefined) continue;
        for (const marketId of s.markets) {
          const key = `${channel}:${marketId}`;
          budgets.set(key, Math.min(budgets.get(key) ?? Number.POSITIVE_INFINITY, ms));
        }
      }
    }
    return this.options.feeds.readings().map((r) => {
      const budgetMs = r.marketId === undefined ? undefined : budgets.get(`${r.channel}:${r.marketId}`);
      return {
        channel: r.channel,
        ...(r.marketId === undefined ? {} : { marketId: r.marketId }),
        lastAtMs: r.lastMs ?? null,
        ageMs: r.ageMs,
        ...(budgetMs === undefined ? {} : { budgetMs }),
        stale: budgetMs !== undefined && r.ageMs > budgetMs,
      };
    });
  }
}

/**
 * A strategy that runs (or waits to) while a kill switch that binds it is tripped is `halted`: its
 * opening intents are refused until a person resets the switch.
 */
function haltedOr(hostStatus: string, halted: boolean): string {
  return halted && (hostStatus === 'running' || hostStatus === 'waiting') ? 'halted' : hostStatus;
}

/** What /ready warns of a strategy: reduce-only on a late stream, failed, its kill switch tripped. */
function warningsOf(s: StrategyStatusView): string[] {
  return [
    ...(s.feed.stale
      ? [`strategy ${s.name} is reduce-only (FEED_STALE): ${s.feed.staleFeeds.map(describeStale).join('; ')}`]
      : []),
    ...(s.status === 'failed' ? [`strategy ${s.name} failed and was stopped`] : []),
    ...(s.killSwitch.tripped ? [`strategy ${s.name} kill switch tripped: ${s.killSwitch.reason ?? ''}`] : []),
  ];
}

function openOrderStatus(o: TrackedOrder, places: number | undefined): OrderStatus {
  return {
    intentId: o.intentId,
    strategy: o.strategy,
    marketId: o.marketId,
    side: o.side,
    size: o.size,
    price: o.price,
    filledSize: o.filledSize,
    state: o.state,
    orderId: o.orderId ?? null,
    orderIdShort: o.orderId === undefined ? null : shortId(o.orderId),
    display: { price: price(o.price, places) },
  };
}

/** A readiness warning per protected position the venue does not protect, and for a venue refusing TP/SL. */
function protectionWarnings(protection: ProtectionStatus | null): string[] {
  if (protection === null) return [];
  const warnings = protection.positions
    .filter((p) => p.unprotected)
    .map(
      (p) =>
        `position of ${p.strategy} on market ${p.marketId} unprotected: no active stop on the venue${p.emulated ? ' (emulated by this process only)' : ''}`,
    );
  if (protection.venueRefusal !== null) warnings.push(`TP/SL emulated: ${protection.venueRefusal}`);
  if (protection.budgetWarning !== null) warnings.push(`TP/SL budget: ${protection.budgetWarning}`);
  return warnings;
}
