import type { Address } from '../core/address.js';
import { detach } from '../core/detach.js';
import { PerpbotError } from '../core/perpbotError.js';
import type { IntentOutcome } from '../engine/intents/intentOutcome.js';
import type { QuoteUptimeView } from '../engine/quoting/quoteUptime.js';
import type { Intent, IntentKind, Side } from '../engine/intents/intents.js';
import { effectiveRisk } from '../engine/guards/riskLimits.js';
import type { SimFaults } from '../sim/simContext.js';
import type { OrderEvent } from '../strategy/orderEvents.js';
import type { StrategyDefinition } from '../strategy/strategyDefinition.js';
import { StrategyHost, type HostLogger, type StrategyStatus } from '../strategy/strategyHost.js';
import type { PnlView, StateSnapshot } from '../strategy/strategyViews.js';
import type { OrderRecord } from '../sim/exchange/exchangeRecords.js';
import { memoryStorage, recordingLogger, type KitLogLine } from './kitSupport.js';
import { InProcessBot } from '../inProcess/inProcessBot.js';
import { kitMarkets } from './kitMarkets.js';
import { DEFAULT_RISK, type KitLevels, type StrategyTestOptions } from './kitOptions.js';
import { InProcessProtection } from '../inProcess/inProcessProtection.js';
import { InProcessVenue, type ScriptedLevel } from '../inProcess/inProcessVenue.js';
import { VirtualTime } from './virtualTime.js';

/**
 * A strategy running in virtual time on the real bot: the runtime's host, context, streams and
 * budgets, the real `Engine`, and the simulator's own exchange answering its requests in-process.
 * Script the market (`mark`, `book`, `trade`), let time pass (`advance`), and assert on
 * `intents`, `outcomes`, `orderEvents`, `state` (what `ctx.state` reads) and `venueOrders`. Every
 * scripting call returns a promise that settles once the bot and the strategy have reacted.
 */
export class StrategyTest<P = unknown> {
  /** Every intent the strategy emitted, in order (including those refused). */
  readonly intents: Intent[] = [];
  readonly outcomes: IntentOutcome[] = [];
  readonly orderEvents: OrderEvent[] = [];
  readonly logs: KitLogLine[] = [];
  /** Failures inside the kit itself (a frame the decoders refused, a simulator error): none in a sound run. */
  readonly errors: unknown[] = [];
  readonly time: VirtualTime;
  /** The simulator behind the kit: its runtime, exchange and controls. */
  readonly venue: InProcessVenue;
  /**
   * The strategy's protection (`protect`, `bracket`, the `protection` option): the bot's keeper on
   * the simulator's TP/SL orders; `venueOrders()` lists those active, `inForce()` what protects.
   */
  readonly protection: InProcessProtection;
  private readonly bot: InProcessBot;
  private readonly host: StrategyHost;
  private readonly storageMap: Map<string, unknown>;
  private readonly blocks = new AbortController();
  private latencyMs = 0;
  private stopped = false;

  constructor(
    readonly definition: StrategyDefinition<P>,
    private readonly options: StrategyTestOptions<P> = {},
  ) {
    this.time = new VirtualTime(options.startMs);
    const marketIds = options.markets ?? [1];
    const onError = (error: unknown): void => void this.errors.push(error);
    this.venue = new InProcessVenue({
      time: this.time,
      markets: kitMarkets(marketIds, options.marketConfig ?? {}),
      ...(options.feesBps === undefined ? {} : { feesBps: options.feesBps }),
      restRequestsPer10s: options.restRequestsPer10s ?? 500,
      onError,
    });
    const log = recordingLogger(this.logs, options.printLogs === true);
    const risk = { ...DEFAULT_RISK, ...options.risk };
    const budget = effectiveRisk(risk, options.budget === undefined ? {} : { risk: options.budget });
    this.bot = new InProcessBot({
      venue: this.venue,
      time: this.time,
      markets: marketIds,
      risk,
      budget,
      balance: options.balance ?? '100000',
      latencyMs: () => this.latencyMs,
      log,
      onError,
    });
    this.protection = new InProcessProtection({
      strategy: this.name,
      bot: this.bot,
      venue: this.venue,
      time: this.time,
      log,
      onError,
    });
    this.storageMap = new Map(options.storage ?? []);
    this.host = this.hostOn(this.bot, marketIds, log);
    this.bot.engine.orderEvents$.subscribe((e) => {
      if (e.strategy === this.name) this.orderEvents.push(e);
    });
  }

  /** The runtime's strategy host on the bot: its streams, state, budgeted execution and order events. */
  private hostOn(bot: InProcessBot, marketIds: readonly number[], log: HostLogger): StrategyHost {
    const execution = bot.execution(this.name);
    execution.outcomes.subscribe((o) => this.outcomes.push(o));
    const host = new StrategyHost({
      strategies: [
        {
          name: this.name,
          definition: this.definition,
          params: this.options.params ?? {},
          markets: marketIds,
          onError: 'cancel',
          configPath: 'params',
        },
      ],
      streams: bot.streams(),
      state: bot.state(),
      execution: {
        ...execution,
        submit: (intent) => {
          this.intents.push(intent);
          execution.submit(intent);
        },
      },
      orderEvents: bot.engine.orderEvents$,
      ledger: bot.engine.ledger,
      logger: log,
      clock: this.time,
      scheduler: this.time,
      runId: 'test',
      storage: () => memoryStorage(this.storageMap),
      waitUntilReady: this.options.waitUntilReady ?? true,
      stopTimeoutMs: this.options.stopTimeoutMs ?? 10_000,
    });
    return host;
  }

  private get name(): string {
    return this.options.name ?? this.definition.name;
  }

  /** Starts the bot (account funded, session key registered, engine reconciled), then the strategy. */
  async start(): Promise<this> {
    await this.time.untilSettled(this.bot.start());
    this.protection.start(this.options.markets ?? [1], this.options.protection);
    this.latencyMs = this.options.latencyMs ?? 0;
    const blockMs = this.options.blockMs ?? 0;
    if (blockMs > 0) detach(this.venue.produceBlocks(blockMs, this.blocks.signal), (e) => this.errors.push(e));
    // onStart may wait on virtual time: start-up goes on in the background while time is advanced.
    await this.time.untilSettled(this.host.start(), 60_000, false);
    return this;
  }

  /** The strategy's status: waiting, running, stopping, done, stopped or failed. */
  get status(): StrategyStatus | undefined {
    return this.host.statuses().get(this.name);
  }

  /** The bot's account on the venue. */
  get account(): Address {
    return this.bot.account;
  }

  /** What the strategy's `ctx.state` reads: the engine's markets, positions, open orders and balance. */
  get state(): StateSnapshot {
    return this.bot.state();
  }

  /** The account's open orders as the venue lists them. */
  venueOrders(marketId?: number): OrderRecord[] {
    return this.venue.openOrders(this.bot.account, marketId);
  }

  /** The strategy's quote uptime per market so far (as `/api/status` shows it), measured in virtual time. */
  quoteUptime(): QuoteUptimeView[] {
    return this.bot.engine.quoting.uptime.views().filter((v) => v.strategy === this.name);
  }

  /** Trips the account's kill switch as `POST /api/kill-switch` does: every order is cancelled, trading halts. */
  tripKillSwitch(reason = 'tripped by the test'): Promise<void> {
    this.bot.engine.tripKillSwitch(reason);
    return this.time.settle();
  }

  /** Resets the kill switches (the account's and the strategy's own): trading resumes. */
  resetKillSwitch(): Promise<void> {
    this.bot.engine.resetKillSwitch();
    return this.time.settle();
  }

  /** A new mark (oracle and index), sent with a block at once. */
  mark(marketId: number, markPrice: string): Promise<void> {
    this.venue.mark(marketId, markPrice);
    return this.time.settle();
  }

  /**
   * The scripted levels become the book (another account's orders); a level that reaches a resting
   * order of the bot trades with it.
   */
  book(marketId: number, levels: { readonly bids?: KitLevels; readonly asks?: KitLevels }): Promise<void> {
    this.venue.book(marketId, toLevels(levels.bids), toLevels(levels.asks));
    return this.time.settle();
  }

  /**
   * A public trade: a taker's IOC order of `size` at up to `price`, matching the book (the bot's
   * orders too) in price-time priority, as on the venue.
   */
  trade(
    marketId: number,
    trade: { readonly price: string; readonly size: string; readonly aggressorSide: Side },
  ): Promise<void> {
    this.venue.trade(marketId, trade.price, trade.size, trade.aggressorSide);
    return this.time.settle();
  }

  /**
   * A taker trades against the strategy's resting order (by intent id) until `size` of it (default:
   * all) filled; the orders ahead of it fill first.
   */
  fill(intentId: string, size?: string): Promise<void> {
    const order = this.bot.engine.tracker.openOrders().find((o) => o.intentId === intentId);
    if (order?.orderId === undefined)
      throw new PerpbotError(`the strategy has no resting order for intent ${intentId}`, {
        code: 'INVALID_VALUE',
        details: { intentId, resting: this.bot.engine.tracker.openOrders().map((o) => o.intentId) },
        hints: ['a placement that waits on the rate limit rests only once sent: advance the time first'],
      });
    this.venue.fillOrder(this.bot.account, order.orderId, size);
    return this.time.settle();
  }

  /** Gives the account a position as a trade outside the bot would (by hand, or an earlier run). */
  position(marketId: number, side: Side, size: string, entryPrice: string): Promise<void> {
    this.venue.openPosition(this.bot.account, marketId, side, size, entryPrice);
    return this.time.settle();
  }

  /**
   * The venue connection drops: the engine goes degraded (opens nothing; `tradingState` says why)
   * and the frames sent meanwhile are lost, until `reconnect`.
   */
  disconnect(reason = 'connection dropped by the test'): Promise<void> {
    this.bot.channels.drop(reason);
    return this.time.settle();
  }

  /** The connection is back: the engine reconciles from the venue (REST) and trades again. */
  reconnect(): Promise<void> {
    this.bot.channels.restore();
    return this.time.settle();
  }

  /**
   * Sets the simulator's faults (`errorRate`, `latencyMs` added by the venue, ...); the kit's own
   * wire latency is the `latencyMs` option.
   */
  faults(change: Partial<SimFaults>): this {
    this.venue.controls.setFaults(change);
    return this;
  }

  /** Lets `ms` of virtual time pass, running the strategy's timers, the blocks and the bot's waits on the way. */
  advance(ms: number): Promise<void> {
    return this.time.advance(ms);
  }

  /** Lets pending work settle without moving time. */
  settle(): Promise<void> {
    return this.time.settle();
  }

  /** Stops the strategy as a shutdown does (onStop and its final intents answered), then the bot. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    // The stop timeout runs on virtual time: let it pass in steps until the host has stopped.
    await this.time.untilSettled(this.host.stop(), (this.options.stopTimeoutMs ?? 10_000) + 1);
    this.blocks.abort();
    await this.time.untilSettled(this.protection.stop());
    await this.time.untilSettled(this.bot.stop());
  }

  /** Intents of one kind, narrowed. */
  intentsOf<K extends IntentKind>(kind: K): Extract<Intent, { kind: K }>[] {
    return this.intents.filter((i): i is Extract<Intent, { kind: K }> => i.kind === kind);
  }

  /** The saved state, e.g. to start another kit from it (a restart). */
  get storage(): ReadonlyMap<string, unknown> {
    return new Map(this.storageMap);
  }

  /** The strategy's own PnL at the current marks. */
  pnl(): PnlView {
    return this.host.pnlOf(this.name);
  }
}

/** Creates a kit and starts the strategy in it. */
export async function strategyTest<P>(
  definition: StrategyDefinition<P>,
  options: StrategyTestOptions<P> = {},
): Promise<StrategyTest<P>> {
  return new StrategyTest(definition, options).start();
}

function toLevels(levels: KitLevels | undefined): ScriptedLevel[] {
  return (levels ?? []).map((l): ScriptedLevel => ('price' in l ? [l.price, l.quantity] : [l[0], l[1]]));
}
