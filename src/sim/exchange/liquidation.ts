import type { Address } from '../../core/address.js';
import type { AccountLedger } from './accountLedger.js';
import type { EventCollector } from './eventCollector.js';
import { maintenanceMarginWei } from './maintenanceMargin.js';
import type { MarketSpec } from './markets.js';
import type { OrderEntry } from './orderEntry.js';
import type { OrderStore } from './orderStore.js';
import { abs } from './positionMath.js';

export { maintenanceMarginWei };

export interface LiquidationDeps {
  readonly ledger: AccountLedger;
  readonly entry: OrderEntry;
  readonly store: OrderStore;
  market(marketId: number): MarketSpec;
  markWei(marketId: number): bigint;
  /** Accounts never liquidated (the synthetic bots). */
  readonly exempt: ReadonlySet<Address>;
}

/**
 * Once per block: a margin pool whose equity fell below its maintenance margin is liquidated
 * the way the venue's engine would, by selling into the book: its open orders in those markets
 * are cancelled and each position is closed with a reduce-only IOC market order without a price
 * bound. Whatever the book cannot absorb stays open and is tried again next block; a loss beyond
 * the collateral leaves a negative balance (venue-facts: the cross balance can be negative).
 */
export class Liquidator {
  constructor(private readonly deps: LiquidationDeps) {}

  run(nowMs: number, events: EventCollector): void {
    const { ledger } = this.deps;
    for (const address of ledger.addresses()) {
      if (this.deps.exempt.has(address)) continue;
      const markets = ledger.openPositionMarkets(address);
      const cross = markets.filter((id) => ledger.position(address, id).marginMode === 0);
      if (cross.length > 0) {
        const equity = ledger.crossPool(address).equityWei;
        const maintenance = cross.reduce((sum, id) => sum + this.maintenance(address, id), 0n);
        if (equity < maintenance) for (const id of cross) this.close(address, id, nowMs, events);
      }
      for (const id of markets) {
        const position = ledger.position(address, id);
        if (position.marginMode !== 1) continue;
        const equity = position.isolatedWei + ledger.unrealizedWei(address, id);
        if (equity < this.maintenance(address, id)) this.close(address, id, nowMs, events);
      }
    }
  }

  private maintenance(address: Address, marketId: number): bigint {
    const size = this.deps.ledger.position(address, marketId).sizeSteps;
    return maintenanceMarginWei(this.deps.market(marketId), size, this.deps.markWei(marketId));
  }

  private close(address: Address, marketId: number, nowMs: number, events: EventCollector): void {
    for (const order of this.deps.store.openOrders(address, marketId)) this.deps.entry.cancel(order, events);
    const size = this.deps.ledger.position(address, marketId).sizeSteps;
    if (size === 0n) return;
    const side = size > 0n ? 1 : 0;
    const steps = abs(size);
    // One order carries at most uint32 steps; a bigger position takes several blocks.
    const sizeSteps = Number(steps > 0xffff_ffffn ? 0xffff_ffffn : steps);
    this.deps.entry.place(
      address,
      {
        marketId,
        sizeSteps,
        priceTicks: side === 1 ? 0 : 16_777_215,
        side,
        postOnly: false,
        reduceOnly: true,
        stpMode: 0,
        orderType: 0,
        timeInForce: 3,
      },
      nowMs,
      events,
    );
  }
}
