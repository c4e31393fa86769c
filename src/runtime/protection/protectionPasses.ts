import { Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { detach } from '../../core/detach.js';
import type { Logger } from '../../core/logger.js';
import type { Engine } from '../../engine/engine.js';
import { closePosition } from '../../engine/intents/intentBuilders.js';
import type { TpslOrder } from '../../engine/orders/tpslOrder.js';
import type { ProtectedPosition } from '../../engine/protection/protectionLegs.js';
import { ProtectionKeeper, type ProtectedMarket, type TpslVenue } from '../../engine/protection/protectionKeeper.js';
import type { TpslStore } from '../../engine/protection/tpslOrders.js';
import type { Config } from '../config/configSchema.js';
import { tickEvery } from '../operations/control/tickEvery.js';

export interface ProtectionPassesOptions {
  readonly config: Config;
  readonly engine: Engine;
  readonly venue: TpslVenue;
  readonly store: TpslStore;
  /** Live TP/SL orders a previous run left (the journal's); none for a replay. */
  readonly restored: readonly TpslOrder[];
  readonly clock: Clock;
  readonly log: Logger;
}

/** How often the keeper compares the positions with their TP/SL orders (in memory; the venue is read less often). */
const PASS_EVERY_MS = 200;

/**
 * The strategies' `protection:` blocks kept as the venue's TP/SL orders by a `ProtectionKeeper`
 * on a started engine: the fills of their executions owned by the protected strategy, passes
 * every 200 ms on the given clock, on every fill and after every reconnect, and the kill switch's
 * choice (`protection.on_kill_switch`). The live bot (`BotProtection`, with its journal) and a
 * replay (on virtual time) run the same passes.
 */
export class ProtectionPasses {
  readonly keeper: ProtectionKeeper;
  private readonly subscriptions = new Subscription();
  private stopping = false;

  constructor(private readonly o: ProtectionPassesOptions) {
    const { engine } = o;
    this.keeper = new ProtectionKeeper({
      venue: o.venue,
      store: o.store,
      restored: o.restored,
      protections: protectedMarkets(o.config),
      position: (marketId) => positionOf(engine, marketId),
      stepPrice: (marketId) => engine.market(marketId)?.config.step_price,
      // The engine follows the mark; a stop on the last trade is emulated on the mark too (docs/spec-gaps).
      watchedPrice: (marketId) => engine.market(marketId)?.mark_price,
      closePosition: async (protection, order) => {
        await engine.execute(
          closePosition({
            intentId: `${order.id}.close`,
            strategy: protection.strategy,
            marketId: protection.marketId,
          }),
        );
      },
      clock: o.clock,
      log: o.log,
      venueReadEveryMs: o.config.protection.venue_read_ms,
    });
    // Before any fill flows: an execution's fill belongs to the protected strategy.
    engine.tracker.ownUnknownFills((fill) => this.keeper.claimFill(fill));
  }

  /** Starts the passes (after the engine started and reconciled); the first one reads the venue's list. */
  start(signal: AbortSignal): void {
    const { engine, log, clock } = this.o;
    this.subscriptions.add(engine.reconnects$.subscribe(() => this.keeper.onReconnect()));
    this.subscriptions.add(engine.fills$.subscribe(() => detach(this.keeper.sync(), () => undefined)));
    detach(this.keeper.sync(true), (err) => log.warn({ err }, 'the first protection pass failed; trying again'));
    detach(
      tickEvery(
        clock,
        PASS_EVERY_MS,
        signal,
        () => this.tick(),
        (err) => log.warn({ err }, 'protection pass failed'),
      ),
      (err) => log.warn({ err }, 'protection passes ended'),
    );
  }

  /** One tick: the kill switch's choice (`protection.on_kill_switch`), then a pass. */
  private tick(): void {
    const { engine, config, log } = this.o;
    const tripped = engine.killSwitch.tripped && config.protection.on_kill_switch === 'cancel';
    if (tripped && !this.keeper.halted) {
      log.warn({}, 'kill switch tripped: cancelling the TP/SL orders (protection.on_kill_switch: cancel)');
      detach(this.keeper.stop('cancel', 'kill switch'), (err) =>
        log.warn({ err }, 'TP/SL cancel on the kill switch failed'),
      );
      return;
    }
    if (!tripped && this.keeper.halted && !this.stopping) this.keeper.resume();
    detach(this.keeper.sync(), () => undefined);
  }

  /** Stops the passes; `keep` leaves the TP/SL orders on the venue, `cancel` cancels them. */
  async stop(mode: 'keep' | 'cancel'): Promise<void> {
    this.stopping = true;
    this.subscriptions.unsubscribe();
    await this.keeper.stop(mode);
  }
}

/** Each market of each strategy with `protection:`, as the keeper protects it. */
export function protectedMarkets(config: Config): ProtectedMarket[] {
  return config.strategies.flatMap((s) =>
    s.protection === undefined
      ? []
      : s.markets.map((marketId) => ({
          strategy: s.name,
          marketId,
          spec: {
            stopLossBps: s.protection?.stop_loss_bps,
            takeProfitBps: s.protection?.take_profit_bps,
            trigger: s.protection?.trigger ?? 'mark',
          },
        })),
  );
}

/** The account's position in the market (the venue's positions feed), with its average entry. */
function positionOf(engine: Engine, marketId: number): ProtectedPosition | undefined {
  const position = engine.tracker.position(marketId);
  if (position === undefined || position.avgEntryPrice === undefined) return undefined;
  return { side: position.side, size: position.size, avgEntryPrice: position.avgEntryPrice };
}
