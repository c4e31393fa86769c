import type { Clock } from '../../core/clock.js';
import { isVenueProtecting } from '../orders/tpslState.js';
import type { ProtectedMarket } from './protectedMarket.js';
import type { ProtectedPosition } from './protectionLegs.js';
import type { TpslOrders } from './tpslOrders.js';

/** A protected position the venue does not protect (see `ProtectionWatchdog.unprotected`). */
export interface UnprotectedPosition {
  readonly strategy: string;
  readonly marketId: number;
  readonly sinceMs: number;
  /** The venue refuses TP/SL orders: the stops are emulated by this process. */
  readonly emulated: boolean;
}

/**
 * The watchdog's reading of the keeper's orders: each protected position without an active TP/SL
 * on the venue for each configured leg (an emulated one does not count: it dies with the
 * process), and since when.
 */
export class ProtectionWatchdog {
  /** Protected positions without their venue legs, since when (the grace). */
  private readonly bareSince = new Map<string, number>();

  constructor(
    private readonly o: {
      protections(): readonly ProtectedMarket[];
      readonly orders: TpslOrders;
      position(marketId: number): ProtectedPosition | undefined;
      readonly clock: Clock;
    },
  ) {}

  /** The positions bare for `graceMs` or longer; `emulated`: the venue refuses TP/SL orders. */
  unprotected(graceMs: number, emulated: boolean): UnprotectedPosition[] {
    const now = this.o.clock.now();
    const out: UnprotectedPosition[] = [];
    for (const p of this.o.protections()) {
      const key = `${p.strategy}/${p.marketId}`;
      if (this.o.position(p.marketId) === undefined || this.heldLegs(p) >= legCount(p)) {
        this.bareSince.delete(key);
        continue;
      }
      const since = this.bareSince.get(key) ?? now;
      this.bareSince.set(key, since);
      if (now - since >= graceMs) out.push({ strategy: p.strategy, marketId: p.marketId, sinceMs: since, emulated });
    }
    return out;
  }

  /** How many of the protection's roles the venue holds a leg of. */
  private heldLegs(p: ProtectedMarket): number {
    const roles = this.o.orders
      .all()
      .filter((o) => o.strategy === p.strategy && o.marketId === p.marketId && isVenueProtecting(o.state))
      .map((o) => o.role);
    return new Set(roles).size;
  }
}

function legCount(p: ProtectedMarket): number {
  return (p.spec.stopLossBps === undefined ? 0 : 1) + (p.spec.takeProfitBps === undefined ? 0 : 1);
}
