import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { IntentKind } from '../../../engine/intents/intents.js';
import type { BotStatus, PnlStatus, StrategyStatusView } from '../control/botStatus.js';
import { FleetGauges, type BotIdentity } from './fleetGauges.js';
import { ProtectionGauges } from './protectionGauges.js';

const PREFIX = 'perpbot_';

/** The venue's refusals that name a nonce: the engine resyncs on them; many of them is a bug or a second process. */
export const NONCE_ERROR_KINDS: ReadonlySet<string> = new Set(['NonceUsed', 'InvalidNonceAnchor', 'InvalidNonceIndex']);

/**
 * prom-client's default metrics that are gauges named like counters (`promtool check metrics`:
 * "non-counter metrics should not have "_total" suffix"); the same counts stay, by type, in
 * perpbot_nodejs_active_handles, perpbot_nodejs_active_requests and perpbot_nodejs_active_resources.
 */
const GAUGES_NAMED_AS_COUNTERS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
] as const;

/**
 * Every intent kind, so each strategy's unknown-outcome counters exist at 0 before the first one:
 * `increase()` in an alert sees a series only from its second sample, and the first unknown
 * outcome would otherwise go unnoticed. A Record, so a new kind is a compile error here.
 */
const INTENT_KINDS = Object.keys({
  placeLimit: true,
  placeMarket: true,
  cancel: true,
  cancelAll: true,
  closePosition: true,
  setLeverage: true,
  setMarginMode: true,
  adjustIsolatedMargin: true,
  replace: true,
  quote: true,
  protect: true,
  bracket: true,
} satisfies Record<IntentKind, true>) as IntentKind[];

/**
 * The bot's Prometheus metrics, in a registry of its own (never prom-client's global one, so two
 * bots in one process, as in the tests, do not mix). Counters and histograms are fed by the
 * streams the bot already has (`observeBotMetrics`); gauges are set from the same status snapshot
 * `/api/status` serves, once per scrape (`render`), so the two never disagree. Values are
 * Prometheus floats: a decimal string becomes a number only here, at the edge.
 */
export class BotMetrics {
  readonly registry = new Registry();
  readonly intents = this.counter(
    'intents_total',
    'Intents by strategy, kind and outcome (accepted, refused, failed, unknown, dry_run)',
    ['strategy', 'kind', 'outcome'],
  );
  readonly refusals = this.counter(
    'refusals_total',
    'Intents refused before signing, by strategy and rule (FEED_DOWN, FEED_STALE, MAX_OPEN_ORDERS...)',
    ['strategy', 'rule'],
  );
  readonly venueErrors = this.counter(
    'venue_errors_total',
    'Venue REST errors by endpoint and kind (the parsed VenueError kind or contract error, transport_* without an answer)',
    ['endpoint', 'kind'],
  );
  readonly nonceErrors = this.counter(
    'nonce_errors_total',
    'Venue refusals naming a nonce (NonceUsed, InvalidNonceAnchor, InvalidNonceIndex)',
    ['kind'],
  );
  readonly fills = this.counter('fills_total', 'Fills by strategy, market and liquidity', [
    'strategy',
    'market',
    'liquidity',
  ]);
  readonly resends = this.counter('resends_total', 'Identical resends of a signed request after no definite answer', [
    'endpoint',
  ]);
  readonly unknownOutcomes = this.counter(
    'unknown_outcomes_total',
    'Intents whose outcome stayed unknown after resends (resolved by the next reconciliation)',
    ['strategy', 'kind'],
  );
  readonly restRetries = this.counter('rest_retries_total', 'REST reads retried after a transient failure', [
    'endpoint',
  ]);
  readonly reconnects = this.counter('reconnects_total', 'WebSocket reconnects', []);
  readonly degradedSeconds = this.counter(
    'degraded_seconds_total',
    'Seconds spent degraded (private feeds down or not reconciled)',
    [],
  );
  readonly feedStale = this.counter(
    'feed_stale_total',
    'Freshness budget breaches: a strategy turned reduce-only because a stream it depends on was late',
    ['strategy', 'channel', 'market'],
  );
  readonly wireDecodeFailures = this.counter(
    'wire_decode_failures_total',
    'Venue bodies and frames the decoders refused, by source (ws:<channel>, rest:<METHOD> <path>); each is dropped',
    ['source'],
  );
  readonly alerts = this.counter('alerts_total', 'Webhook alerts by event and result (sent, failed, dropped)', [
    'event',
    'result',
  ]);
  readonly restLatency = new Histogram({
    name: `${PREFIX}rest_request_duration_seconds`,
    help: 'REST request latency by endpoint and outcome, retries of a read included',
    labelNames: ['endpoint', 'outcome'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly tickToTrade = new Histogram({
    name: `${PREFIX}tick_to_trade_seconds`,
    help: "From the last market-data message (mark or book) of the order's market before the intent, to its signed request handed to the transport",
    labelNames: ['strategy', 'market'],
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [this.registry],
  });

  private readonly ready = this.gauge(
    'ready',
    '1 while /ready answers 200 (trading: connected, reconciled, not degraded, kill switch armed)',
    [],
  );
  private readonly mode = this.gauge('trading_mode', '1 for the current trading mode (trading, degraded, stopped)', [
    'mode',
  ]);
  private readonly killSwitch = this.gauge(
    'kill_switch_tripped',
    '1 while a kill switch is tripped: the account one (scope=account) or a strategy budget one',
    ['scope'],
  );
  private readonly feedAge = this.gauge(
    'feed_age_seconds',
    'Seconds since the last message of each followed stream (since following began when none came)',
    ['channel', 'market'],
  );
  private readonly reduceOnly = this.gauge(
    'strategy_reduce_only',
    '1 while a strategy is reduce-only because a stream it depends on is late (FEED_STALE)',
    ['strategy'],
  );
  private readonly strategyUp = this.gauge('strategy_running', '1 while the strategy runs, 0 once stopped or failed', [
    'strategy',
  ]);
  private readonly strategyHalted = this.gauge(
    'strategy_halted',
    "1 while a kill switch that binds the strategy (the account's or its own) is tripped: it opens nothing",
    ['strategy'],
  );
  private readonly position = this.gauge(
    'position_size',
    'Signed position size of the account (base asset; short negative)',
    ['market'],
  );
  private readonly strategyPosition = this.gauge(
    'strategy_position_size',
    "Signed net size of a strategy's own fills in this run",
    ['strategy', 'market'],
  );
  private readonly pnl = this.gauge(
    'pnl_usdc',
    'Session PnL in USDC from the engine ledger, valued by average entry (kind realised = realisedPnl, unrealised = unrealisedPnl, fees = fees paid, net = netPnl = realised + unrealised - fees): the account (strategy="account"), each strategy on its own fills, and fills of orders not ours (strategy="unattributed")',
    ['strategy', 'kind'],
  );
  private readonly balance = this.gauge('balance_usdc', 'Cross-margin balance (USDC)', []);
  private readonly equity = this.gauge(
    'equity_usdc',
    'Cross-margin balance plus unrealisedPnl, the open positions at the mark valued by average entry (USDC)',
    [],
  );
  private readonly openOrders = this.gauge(
    'open_orders',
    'Open orders by strategy and market: resting, in flight or unknown (queued ones are perpbot_orders_queued)',
    ['strategy', 'market'],
  );
  private readonly queuedOrders = this.gauge(
    'orders_queued',
    "Placements the engine holds for admission (the strategy's budget or the account's rate limit), nothing sent yet",
    ['strategy'],
  );
  private readonly busyPoll = this.gauge(
    'busy_poll_spinning',
    '1 while busy polling spins the event loop (a core at 100 %), 0 while parked or off (busy_poll in the config)',
    [],
  );
  private readonly quoteUptime = this.gauge(
    'quote_uptime_ratio',
    'Share of the time a strategy wanted orders on a market that the venue held every one of them (its quote target within tolerance, or its live limit orders), 0..1',
    ['strategy', 'market'],
  );
  private readonly quoteMissing = this.gauge(
    'quote_missing_ratio',
    'Share of that time with at least one wanted order missing from the venue (all="true": every one missing)',
    ['strategy', 'market', 'all'],
  );
  private readonly requoteLatencyP50 = this.gauge(
    'requote_latency_p50_seconds',
    'From a change of what a strategy wants on a market to the venue holding all of it: the median of the last 1000 such changes',
    ['strategy', 'market'],
  );
  private readonly requoteLatencyP99 = this.gauge(
    'requote_latency_p99_seconds',
    'The same, the 99th percentile of the last 1000',
    ['strategy', 'market'],
  );
  private readonly requotes = this.gauge(
    'requotes',
    'Changes of what a strategy wants that the venue did not already hold, since the start',
    ['strategy', 'market'],
  );
  private readonly quoteWanted = this.counter(
    'quote_wanted_seconds_total',
    'Time a strategy wanted orders on a market (the quote uptime denominator): rate(held) / rate(wanted) is the uptime over a window',
    ['strategy', 'market'],
  );
  private readonly quoteHeld = this.counter(
    'quote_held_seconds_total',
    'Of that time, the time the venue held every wanted order',
    ['strategy', 'market'],
  );
  /** What the quote counters last reported, per strategy and market (ms). */
  private readonly quoteReported = new Map<string, { wantedMs: number; heldMs: number }>();
  private readonly actionsPerRequote = this.gauge(
    'actions_per_requote',
    'Venue actions (places and cancels; a replacement is two) per such change',
    ['strategy', 'market'],
  );
  private readonly fleet = new FleetGauges(this.registry, PREFIX);
  private readonly protection = new ProtectionGauges(this.registry, PREFIX);
  private reported = { reconnects: 0, degradedMs: 0 };

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    for (const name of GAUGES_NAMED_AS_COUNTERS) this.registry.removeSingleMetric(`${PREFIX}${name}`);
    // At 0 from the start, for the alerts' increase() (see INTENT_KINDS).
    for (const kind of NONCE_ERROR_KINDS) this.nonceErrors.inc({ kind }, 0);
  }

  /** Sets `perpbot_info`: the one series that carries the account, so every other series can join on it. */
  identify(identity: BotIdentity): void {
    this.fleet.identify(identity);
  }

  /** The exposition text, gauges set from `status` first. */
  async render(status: BotStatus | undefined): Promise<string> {
    if (status !== undefined) this.setGauges(status);
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private setGauges(status: BotStatus): void {
    for (const g of [
      this.mode,
      this.killSwitch,
      this.feedAge,
      this.reduceOnly,
      this.strategyUp,
      this.strategyHalted,
      this.position,
      this.strategyPosition,
      this.pnl,
      this.openOrders,
      this.queuedOrders,
      this.quoteUptime,
      this.quoteMissing,
      this.requoteLatencyP50,
      this.requoteLatencyP99,
      this.requotes,
      this.actionsPerRequote,
    ])
      g.reset();
    this.ready.set(status.ready.ready ? 1 : 0);
    this.busyPoll.set(status.busyPoll === 'spinning' ? 1 : 0);
    for (const mode of ['trading', 'degraded', 'halted', 'stopped'] as const)
      this.mode.set({ mode }, status.mode === mode ? 1 : 0);
    this.killSwitch.set({ scope: 'account' }, status.killSwitch.tripped ? 1 : 0);
    for (const feed of status.streams)
      this.feedAge.set(
        { channel: feed.channel, market: feed.marketId === undefined ? '' : String(feed.marketId) },
        feed.ageMs / 1000,
      );
    for (const p of status.positions) this.position.set({ market: String(p.marketId) }, Number(p.signedSize));
    if (status.balance !== null) this.balance.set(Number(status.balance));
    if (status.equity !== null) this.equity.set(Number(status.equity));
    this.setPnl('account', status.pnl);
    this.setPnl('unattributed', status.unattributed.pnl);
    for (const s of status.strategies) this.setStrategy(s);
    for (const o of status.openOrders)
      if (o.state === 'queued') this.queuedOrders.inc({ strategy: o.strategy });
      else this.openOrders.inc({ strategy: o.strategy, market: String(o.marketId) });
    // Zero for a strategy with nothing queued, so a graph shows the wait ending.
    for (const s of status.strategies) this.queuedOrders.inc({ strategy: s.name }, 0);
    this.protection.set(status.protection);
    this.countSinceLastScrape(status);
    this.setFleetSeries(status);
  }

  /** The loss limits and the journal's state, and each strategy's unknown-outcome counters at 0 from the start. */
  private setFleetSeries(status: BotStatus): void {
    for (const s of status.strategies)
      for (const kind of INTENT_KINDS) this.unknownOutcomes.inc({ strategy: s.name, kind }, 0);
    this.fleet.set(status);
  }

  private setStrategy(s: StrategyStatusView): void {
    this.killSwitch.set({ scope: s.name }, s.killSwitch.tripped ? 1 : 0);
    this.reduceOnly.set({ strategy: s.name }, s.feed.stale ? 1 : 0);
    this.strategyUp.set({ strategy: s.name }, s.status === 'running' || s.status === 'halted' ? 1 : 0);
    this.strategyHalted.set({ strategy: s.name }, s.status === 'halted' ? 1 : 0);
    for (const p of s.positions)
      this.strategyPosition.set({ strategy: s.name, market: String(p.marketId) }, Number(p.signedSize));
    this.setPnl(s.name, s.pnl);
    for (const u of s.quoteUptime ?? []) this.setQuoteUptime(s.name, u);
  }

  private setQuoteUptime(strategy: string, u: StrategyStatusView['quoteUptime'][number]): void {
    const market = String(u.marketId);
    if (u.uptime !== null) this.quoteUptime.set({ strategy, market }, u.uptime);
    if (u.missing !== null) this.quoteMissing.set({ strategy, market, all: 'false' }, u.missing);
    if (u.none !== null) this.quoteMissing.set({ strategy, market, all: 'true' }, u.none);
    const { p50, p99 } = u.requoteLatencyMs;
    if (p50 !== null) this.requoteLatencyP50.set({ strategy, market }, p50 / 1000);
    if (p99 !== null) this.requoteLatencyP99.set({ strategy, market }, p99 / 1000);
    this.requotes.set({ strategy, market }, u.requotes);
    const key = `${strategy}\u0000${market}`;
    const before = this.quoteReported.get(key) ?? { wantedMs: 0, heldMs: 0 };
    if (u.wantedMs > before.wantedMs) this.quoteWanted.inc({ strategy, market }, (u.wantedMs - before.wantedMs) / 1000);
    if (u.heldMs > before.heldMs) this.quoteHeld.inc({ strategy, market }, (u.heldMs - before.heldMs) / 1000);
    this.quoteReported.set(key, {
      wantedMs: Math.max(before.wantedMs, u.wantedMs),
      heldMs: Math.max(before.heldMs, u.heldMs),
    });
    if (u.actionsPerRequote !== null) this.actionsPerRequote.set({ strategy, market }, u.actionsPerRequote);
  }

  /** `strategy` is the label: a strategy's name, `account` or `unattributed`. */
  private setPnl(strategy: string, pnl: PnlStatus | null): void {
    if (pnl === null) return;
    this.pnl.set({ strategy, kind: 'realised' }, Number(pnl.realisedPnl));
    this.pnl.set({ strategy, kind: 'unrealised' }, Number(pnl.unrealisedPnl));
    this.pnl.set({ strategy, kind: 'fees' }, Number(pnl.fees));
    this.pnl.set({ strategy, kind: 'net' }, Number(pnl.netPnl));
  }

  /** Running totals the status keeps: the counters move by what changed since the last scrape. */
  private countSinceLastScrape(status: BotStatus): void {
    if (status.connection.reconnects > this.reported.reconnects)
      this.reconnects.inc(status.connection.reconnects - this.reported.reconnects);
    if (status.degraded.totalMs > this.reported.degradedMs)
      this.degradedSeconds.inc((status.degraded.totalMs - this.reported.degradedMs) / 1000);
    this.reported = {
      reconnects: Math.max(this.reported.reconnects, status.connection.reconnects),
      degradedMs: Math.max(this.reported.degradedMs, status.degraded.totalMs),
    };
  }

  private counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name: `${PREFIX}${name}`, help, labelNames, registers: [this.registry] });
  }

  private gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
    return new Gauge({ name: `${PREFIX}${name}`, help, labelNames, registers: [this.registry] });
  }
}
