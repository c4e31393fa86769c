import { Gauge, type Registry } from 'prom-client';
import type { TerminalTpslState, TpslState } from '../../../engine/orders/tpslState.js';
import type { TpslRole } from '../../../engine/orders/tpslOrder.js';
import type { ProtectionStatus } from '../control/botStatus.js';

/**
 * The states a TP/SL order is in while the bot holds it (the status lists these; an ended one is
 * gone from it). A Record, so a new state of the engine's table is a compile error here.
 */
const HELD_STATES = Object.keys({
  placing: true,
  accepted: true,
  triggered: true,
  emulated: true,
  cancelling: true,
} satisfies Record<Exclude<TpslState, TerminalTpslState>, true>);

const ROLES = Object.keys({ stop_loss: true, take_profit: true } satisfies Record<TpslRole, true>);

/**
 * The protection watchdog's gauges (`protection:`), set from the status's `protection` like every
 * other gauge: each protected position unprotected or not, the OperatorHub budget, and the
 * engine's TP/SL orders by state. Every role and held state of a protected position is a series
 * from the start (0 until an order is in it), so a graph and an alert see a state empty out.
 */
export class ProtectionGauges {
  private readonly unprotected: Gauge<'strategy' | 'market'>;
  private readonly budgetLow: Gauge;
  private readonly orders: Gauge<'strategy' | 'market' | 'role' | 'state'>;

  constructor(registry: Registry, prefix: string) {
    const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
      new Gauge<L>({ name: `${prefix}${name}`, help, labelNames, registers: [registry] });
    this.unprotected = gauge(
      'position_unprotected',
      '1 while a protected strategy holds a position without an active stop on the venue past protection.grace_ms (an emulated stop counts as none)',
      ['strategy', 'market'],
    );
    this.budgetLow = gauge(
      'protection_budget_low',
      '1 while the OperatorHub budget the TP/SL executions spend is missing, expires within a day, or is below what the open stops need',
      [],
    );
    this.orders = gauge(
      'tpsl_orders',
      "The engine's TP/SL orders a protected strategy holds, by role (stop_loss, take_profit) and state (placing, accepted, triggered: on the venue; emulated: by this process only; cancelling)",
      ['strategy', 'market', 'role', 'state'],
    );
  }

  /** From the status's `protection`; nothing when no strategy is protected (the budget keeps its last value then). */
  set(protection: ProtectionStatus | null | undefined): void {
    this.unprotected.reset();
    this.orders.reset();
    if (protection === null || protection === undefined) return;
    this.budgetLow.set(protection.budgetWarning === null ? 0 : 1);
    for (const p of protection.positions) {
      const market = String(p.marketId);
      this.unprotected.set({ strategy: p.strategy, market }, p.unprotected ? 1 : 0);
      for (const role of ROLES)
        for (const state of HELD_STATES) this.orders.set({ strategy: p.strategy, market, role, state }, 0);
    }
    for (const o of protection.orders)
      this.orders.inc({ strategy: o.strategy, market: String(o.marketId), role: o.role, state: o.state });
  }
}
