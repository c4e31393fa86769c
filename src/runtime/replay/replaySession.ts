import type { Clock } from '../../core/clock.js';
import { DEFAULT_MARKETS, type MarketDefinition } from '../../sim/exchange/markets.js';
import { DrivenMarket } from '../../sim/replay/drivenMarket.js';
import { StrategyHost, type HostedStrategy, type HostLogger } from '../../strategy/strategyHost.js';
import { InProcessBot } from '../../inProcess/inProcessBot.js';
import { memoryStorage } from '../../inProcess/memoryStorage.js';
import { InProcessVenue } from '../../inProcess/inProcessVenue.js';
import { VirtualTime } from '../../inProcess/virtualTime.js';
import { decodeServerFrame } from '../../venue/ws/decodeServerFrame.js';
import type { Config } from '../config/configSchema.js';
import { effectiveRisk } from '../../engine/guards/riskLimits.js';
import { budgetedExecution, type BudgetedExecution } from '../../strategy/wiring/budgetedExecution.js';
import { protectedMarkets } from '../protection/protectionPasses.js';
import { REPLAY_OPERATOR_GRANT, ReplayProtection } from './replayProtection.js';
import { placeholderSigner } from './replaySigner.js';
import type { ReplayStopsTape } from './replayStopsTape.js';

export interface ReplaySessionOptions {
  readonly config: Config;
  readonly hosted: readonly HostedStrategy[];
  /** Every market the recording drives (the venue's grid for each comes from the simulator's markets). */
  readonly markets: readonly MarketDefinition[];
  /** The markets the bot follows: those of the configured strategies. */
  readonly botMarkets: readonly number[];
  readonly startMs: number;
  readonly latencyMs: number;
  readonly makerFeeBps: number;
  readonly takerFeeBps: number;
  readonly balance: string;
  readonly log: HostLogger;
  readonly onError: (error: unknown) => void;
}

/**
 * One replay's machinery, wired as the strategy test kit wires a bot: the simulator's exchange in
 * virtual time with its market driven by the recording (`DrivenMarket`), the real engine on it
 * (`InProcessBot`: REST answered in-process, the simulator's own channel frames), and the runtime's
 * strategy host with every configured strategy behind its own budget, as `perpbot start` hosts them,
 * and the protected strategies' TP/SL orders kept on its simulator (`ReplayProtection`).
 */
export class ReplaySession {
  readonly time: VirtualTime;
  readonly driven: DrivenMarket;
  readonly bot: InProcessBot;
  /** The protected strategies' TP/SL orders as the replay goes (undefined: no strategy has `protection:`). */
  readonly stops: ReplayStopsTape | undefined;
  private readonly venue: InProcessVenue;
  private readonly protection: ReplayProtection | undefined;
  private readonly execution: BudgetedExecution;
  private readonly host: StrategyHost;
  private hostStart: Promise<void> | undefined;

  constructor(private readonly o: ReplaySessionOptions) {
    this.time = new VirtualTime(o.startMs);
    const venue = (this.venue = new InProcessVenue({
      time: this.time,
      markets: o.markets,
      feesBps: { maker: o.makerFeeBps, taker: o.takerFeeBps },
      restRequestsPer10s: 500,
      deterministicIds: true,
      onError: o.onError,
    }));
    // The client's own decoder (its fast paths), as the bot reads the same frames.
    this.driven = new DrivenMarket(venue.runtime, decodeServerFrame);
    this.bot = new InProcessBot({
      venue,
      time: this.time,
      markets: o.botMarkets,
      risk: o.config.risk,
      budget: o.config.risk,
      balance: o.balance,
      latencyMs: () => o.latencyMs,
      log: o.log,
      onError: o.onError,
      engineSigner: placeholderSigner,
      ...(protectedMarkets(o.config).length === 0 ? {} : { operator: REPLAY_OPERATOR_GRANT }),
    });
    // A replay's speed, not a wire: the simulator does not recover the account's permits, so the
    // engine's session key signs nothing (replaySigner.ts); every other check of a permit runs.
    venue.trustSignaturesOf(this.bot.account);
    this.protection = ReplayProtection.create(o.config, this.bot, this.time, o.log);
    if (this.protection === undefined)
      this.bot.engine.protections.keptByNobody(
        'this replay keeps no TP/SL orders: no strategy of its config has protection:',
        'give the strategy a protection: block in the config to replay its stops',
      );
    this.stops = this.protection?.stops;
    this.execution = budgetedExecution({
      engine: this.bot.engine,
      budgets: new Map(o.config.strategies.map((s) => [s.name, effectiveRisk(o.config.risk, s)])),
      clock: this.time,
    });
    this.host = this.hostStrategies();
  }

  get clock(): Clock {
    return this.time;
  }

  /** The bot starts (funded, key registered, engine reconciled); the strategies wait for a mark and a book. */
  async start(): Promise<void> {
    await this.time.untilSettled(this.bot.start(), 60_000);
    this.protection?.start(this.venue);
    this.hostStart = this.host.start();
    this.hostStart.catch(this.o.onError);
    await this.time.settle();
  }

  /** Stops the strategies as a shutdown does (their orders cancelled, onStop answered), then the bot. */
  async stop(): Promise<void> {
    await this.time.untilSettled(this.host.stop(), this.o.config.shutdown.timeout_ms + 1_000);
    // As a live bot's exit: the TP/SL orders kept on the venue or cancelled (`shutdown.protection`).
    if (this.protection !== undefined)
      await this.time.untilSettled(this.protection.stop(this.o.config.shutdown.protection), 60_000);
    this.execution.close();
    await this.time.untilSettled(this.bot.stop(), 60_000);
    this.driven.close();
  }

  private hostStrategies(): StrategyHost {
    const storage = new Map<string, Map<string, unknown>>();
    return new StrategyHost({
      strategies: this.o.hosted,
      streams: this.bot.streams(),
      state: this.bot.state(),
      execution: this.execution,
      ledger: this.bot.engine.ledger,
      orderEvents: this.bot.engine.orderEvents$,
      logger: this.o.log,
      clock: this.time,
      scheduler: this.time,
      runId: 'replay',
      // A replay starts from nothing saved and keeps nothing: each strategy's storage is in memory.
      storage: (name) => {
        const map = storage.get(name) ?? new Map<string, unknown>();
        storage.set(name, map);
        return memoryStorage(map);
      },
      waitUntilReady: true,
      stopTimeoutMs: this.o.config.shutdown.timeout_ms,
      cancelOrdersOnStop: this.o.config.shutdown.open_orders === 'cancel',
    });
  }
}

/** The simulator's definition of each market id (its grid), or the ids it does not know. */
export function marketDefinitions(ids: readonly number[]): { known: MarketDefinition[]; unknown: number[] } {
  const known = ids.flatMap((id) => DEFAULT_MARKETS.filter((m) => m.market_id === id));
  return { known, unknown: ids.filter((id) => !known.some((m) => m.market_id === id)) };
}
