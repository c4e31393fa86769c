import { Subscription } from 'rxjs';
import { detach } from '../core/detach.js';
import type { HostLogger } from '../strategy/strategyHost.js';
import type { ProtectionFields } from '../engine/intents/intents.js';
import type { ProtectedMarket, ProtectionKeeper } from '../engine/protection/protectionKeeper.js';
import type { TpslOrder } from '../engine/orders/tpslOrder.js';
import type { InProcessBot } from './inProcessBot.js';
import type { InProcessVenue } from './inProcessVenue.js';
import type { SimTpslOrder } from '../sim/tpsl/simTpslOrder.js';
import type { VirtualTime } from './virtualTime.js';
import { tickEvery } from '../core/tickEvery.js';
import { engineKeeper, passOnEngineEvents } from '../engine/engineKeeper.js';

/** As the bot: a pass every 200 ms; the venue's list read every 2 s unless something asks sooner. */
const PASS_EVERY_MS = 200;
/** The OperatorHub budget the kit grants: enough for any test's TP/SL executions (USD in wei). */
const KIT_BUDGET_WEI = 10n ** 30n;
const TEN_YEARS_S = 10 * 365 * 24 * 3600;

/**
 * The bot's protection in process (the strategy test kit's): the runtime's keeper (`engineKeeper`) on the in-process
 * simulator's TP/SL orders, so a strategy's `protect` and `bracket` intents (or the kit's
 * `protection` option, as the YAML's) place, resize, fire and cancel real TP/SL in virtual time.
 * Its passes start with the first protection: a kit whose strategy never protects runs no timer
 * more. The account's OperatorHub budget is granted at start, so a triggered TP/SL executes.
 */
export class InProcessProtection {
  readonly keeper: ProtectionKeeper;
  private readonly subscriptions = new Subscription();
  private readonly passes = new AbortController();
  private passing = false;

  constructor(
    private readonly o: {
      /** The kit's strategy. */
      readonly strategy: string;
      readonly bot: InProcessBot;
      readonly venue: InProcessVenue;
      readonly time: VirtualTime;
      readonly log: HostLogger;
      readonly onError: (error: unknown) => void;
    },
  ) {
    this.keeper = engineKeeper({
      engine: o.bot.engine,
      venue: o.bot.tpslVenue(),
      store: { write: () => undefined },
      restored: [],
      clock: o.time,
      log: o.log.child({ component: 'protection' }),
    });
  }

  /** After the bot started: the budget, the config's protection (if any), then the passes once protected. */
  start(markets: readonly number[], protection: ProtectionFields | undefined): void {
    const { bot, venue, time, strategy } = this.o;
    venue.runtime.chainState.allowances.grant(bot.account, {
      operator: venue.runtime.operatorHub,
      budgetWei: KIT_BUDGET_WEI,
      expiry: Math.floor(time.now() / 1000) + TEN_YEARS_S,
    });
    this.subscriptions.add(bot.engine.protections.changes$.subscribe(() => this.startPasses()));
    if (protection !== undefined)
      bot.engine.protections.configure(
        markets.map((marketId) => ({
          strategy,
          marketId,
          spec: { ...protection, trigger: protection.trigger ?? 'mark' },
        })),
        new Map(markets.map((m) => [m, [strategy]])),
      );
  }

  /** The strategy's protections in force: its `protection` option's, overridden by what it asked. */
  inForce(): ProtectedMarket[] {
    return this.o.bot.engine.protections.current().filter((p) => p.strategy === this.o.strategy);
  }

  /** The engine's TP/SL orders of the strategy (every state; those ended within the last virtual hour too). */
  orders(): TpslOrder[] {
    return this.keeper.orders.all().filter((order) => order.strategy === this.o.strategy);
  }

  /** The account's active TP/SL orders (ACCEPTED or TRIGGERED) as the simulator holds them. */
  venueOrders(marketId?: number): SimTpslOrder[] {
    return this.o.venue.runtime.tpsl
      .orders(this.o.bot.account)
      .filter(
        (o) =>
          (marketId === undefined || o.marketId === marketId) &&
          (o.status === 'TPSL_ORDER_STATUS_ACCEPTED' || o.status === 'TPSL_ORDER_STATUS_TRIGGERED'),
      );
  }

  /** Stops the passes; the TP/SL orders stay on the simulator, as `shutdown.protection: keep` leaves them. */
  async stop(): Promise<void> {
    this.passes.abort();
    this.subscriptions.unsubscribe();
    await this.keeper.stop('keep');
  }

  private startPasses(): void {
    if (this.passing) return;
    this.passing = true;
    const { bot, time, onError } = this.o;
    this.subscriptions.add(passOnEngineEvents(this.keeper, bot.engine));
    detach(this.keeper.sync(true), onError);
    detach(
      tickEvery(time, PASS_EVERY_MS, this.passes.signal, () => detach(this.keeper.sync(), onError), onError),
      onError,
    );
  }
}
