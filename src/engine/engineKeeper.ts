import { Subscription } from 'rxjs';
import type { Clock } from '../core/clock.js';
import { detach } from '../core/detach.js';
import type { Logger } from '../core/logger.js';
import type { Engine } from './engine.js';
import { closePosition } from './intents/intentBuilders.js';
import type { TpslOrder } from './orders/tpslOrder.js';
import type { ProtectedPosition } from './protection/protectionLegs.js';
import { ProtectionKeeper, type TpslVenue } from './protection/protectionKeeper.js';
import type { TpslStore } from './protection/tpslOrders.js';

export interface EngineKeeperOptions {
  readonly engine: Engine;
  readonly venue: TpslVenue;
  readonly store: TpslStore;
  readonly restored: readonly TpslOrder[];
  readonly clock: Clock;
  readonly log: Logger;
  readonly venueReadEveryMs?: number;
}

/**
 * A `ProtectionKeeper` on the engine, as the bot and the strategy test kit run it: the protections
 * in force (`engine.protections`), the account's positions, the market grid and the mark, an
 * emulated stop's close as the strategy's reduce-only market order, and the fills of executions
 * owned by the protected strategy (claimed before any fill flows).
 */
export function engineKeeper(o: EngineKeeperOptions): ProtectionKeeper {
  const { engine } = o;
  const keeper = new ProtectionKeeper({
    venue: o.venue,
    store: o.store,
    restored: o.restored,
    protections: () => engine.protections.current(),
    position: (marketId) => positionOf(engine, marketId),
    stepPrice: (marketId) => engine.market(marketId)?.config.step_price,
    // The engine follows the mark; a stop on the last trade is emulated on the mark too (docs/spec-gaps).
    watchedPrice: (marketId) => engine.market(marketId)?.mark_price,
    closePosition: async (protection, order) => {
      await engine.execute(
        closePosition({ intentId: `${order.id}.close`, strategy: protection.strategy, marketId: protection.marketId }),
      );
    },
    clock: o.clock,
    log: o.log,
    ...(o.venueReadEveryMs === undefined ? {} : { venueReadEveryMs: o.venueReadEveryMs }),
  });
  engine.tracker.ownUnknownFills((fill) => keeper.claimFill(fill));
  return keeper;
}

/** The keeper's passes beyond its ticks: on every fill, every change of a protection, and a reconnect. */
export function passOnEngineEvents(keeper: ProtectionKeeper, engine: Engine): Subscription {
  const subscriptions = new Subscription();
  subscriptions.add(engine.reconnects$.subscribe(() => keeper.onReconnect()));
  // A strategy protected, changed or ended a protection: its legs follow at once.
  subscriptions.add(engine.protections.changes$.subscribe(() => detach(keeper.sync(), () => undefined)));
  subscriptions.add(engine.fills$.subscribe(() => detach(keeper.sync(), () => undefined)));
  return subscriptions;
}

/** The account's position in the market (the venue's positions feed), with its average entry. */
function positionOf(engine: Engine, marketId: number): ProtectedPosition | undefined {
  const position = engine.tracker.position(marketId);
  if (position === undefined || position.avgEntryPrice === undefined) return undefined;
  return { side: position.side, size: position.size, avgEntryPrice: position.avgEntryPrice };
}
