import type { Address } from '../../core/address.js';
import { fixedToDecimal, weiToDecimal } from '../../core/decimal.js';
import type { BalanceRecord, PositionRecord } from './exchangeRecords.js';
import {
  initialMarginFromSidesWei,
  orderMarginNotionalWei,
  type MarginOrder,
  type SideNotionals,
} from './initialMargin.js';
import { liquidationPriceWei, maintenanceMarginWei } from './maintenanceMargin.js';
import type { MarketSpec } from './markets.js';
import { abs, applyFillToPosition, unrealizedPnlWei } from './positionMath.js';

/** Per (account, market): the position and the account's settings for that market. */
export interface PositionState {
  sizeSteps: bigint;
  avgEntryWei: bigint;
  realizedPnlWei: bigint;
  leverage: number;
  marginMode: 0 | 1;
  /** Collateral set aside for this market in isolated mode, USD wei. */
  isolatedWei: bigint;
}

export interface AccountState {
  readonly address: Address;
  /** Cross-margin collateral, USD wei (18 decimals); negative after losses beyond it. */
  crossWei: bigint;
  readonly positions: Map<number, PositionState>;
}

/** What the ledger needs from the rest of the exchange to value positions and orders. */
export interface LedgerContext {
  market(marketId: number): MarketSpec;
  markWei(marketId: number): bigint;
  /** Side sums of the account's open orders in the market, valued at the current mark. */
  marginNotionals(account: Address, marketId: number): SideNotionals;
}

/**
 * Collateral, positions and margin of every account. Money is USD wei (18 decimals), the same
 * scale the venue uses for budgets, so deposits, fees and PnL are exact integers.
 */
export class AccountLedger {
  private readonly accounts = new Map<Address, AccountState>();

  constructor(
    private readonly context: LedgerContext,
    private readonly defaultLeverage: number,
    /** Report liquidation prices (only meaningful when the exchange liquidates). */
    private readonly reportLiquidationPrice = false,
  ) {}

  isRegistered(account: Address): boolean {
    return this.accounts.has(account);
  }

  /** The first deposit registers the account (spec "Account registration"). */
  deposit(address: Address, amountWei: bigint): void {
    let state = this.accounts.get(address);
    if (state === undefined) {
      state = { address, crossWei: 0n, positions: new Map() };
      this.accounts.set(address, state);
    }
    state.crossWei += amountWei;
  }

  /**
   * The account's state. An unregistered account reads as an empty, unstored one, so reads never
   * register anybody; the exchange refuses every change before registration.
   */
  account(address: Address): AccountState {
    return this.accounts.get(address) ?? { address, crossWei: 0n, positions: new Map() };
  }

  position(address: Address, marketId: number): PositionState {
    const account = this.account(address);
    let position = account.positions.get(marketId);
    if (position === undefined) {
      const market = this.context.market(marketId);
      position = {
        sizeSteps: 0n,
        avgEntryWei: 0n,
        realizedPnlWei: 0n,
        leverage: Math.min(this.defaultLeverage, market.maxLeverage),
        marginMode: 0,
        isolatedWei: 0n,
      };
      account.positions.set(marketId, position);
    }
    return position;
  }

  /** Applies one fill: position, realised PnL and fee land in the market's margin pool. */
  settleFill(address: Address, marketId: number, side: 0 | 1, steps: bigint, priceWei: bigint, feeWei: bigint): bigint {
    const market = this.context.market(marketId);
    const position = this.position(address, marketId);
    const outcome = applyFillToPosition(market, position, side, steps, priceWei);
    position.sizeSteps = outcome.sizeSteps;
    position.avgEntryWei = outcome.avgEntryWei;
    position.realizedPnlWei += outcome.realizedWei;
    const delta = outcome.realizedWei - feeWei;
    if (position.marginMode === 1) position.isolatedWei += delta;
    else this.account(address).crossWei += delta;
    return outcome.realizedWei;
  }

  unrealizedWei(address: Address, marketId: number): bigint {
    const position = this.position(address, marketId);
    return unrealizedPnlWei(this.context.market(marketId), position, this.context.markWei(marketId));
  }

  /** Initial margin of one market with an optional extra (not yet placed) order. */
  marketMarginWei(address: Address, marketId: number, extra?: MarginOrder): bigint {
    const position = this.position(address, marketId);
    const market = this.context.market(marketId);
    const markWei = this.context.markWei(marketId);
    const sides = this.context.marginNotionals(address, marketId);
    return initialMarginFromSidesWei(
      market,
      position.sizeSteps,
      markWei,
      withExtra(market, markWei, sides, extra),
      position.leverage,
    );
  }

  /**
   * Equity and initial margin of the pool that backs `marketId` (cross, or that isolated market),
   * before and after adding `extra`; the other markets are not recomputed for the "after".
   */
  pool(
    address: Address,
    marketId: number,
    extra?: MarginOrder,
  ): { equityWei: bigint; marginWei: bigint; marginAfterWei: bigint } {
    const position = this.position(address, marketId);
    const market = this.context.market(marketId);
    const markWei = this.context.markWei(marketId);
    const sides = this.context.marginNotionals(address, marketId);
    const before = initialMarginFromSidesWei(market, position.sizeSteps, markWei, sides, position.leverage);
    const after =
      extra === undefined
        ? before
        : initialMarginFromSidesWei(
            market,
            position.sizeSteps,
            markWei,
            withExtra(market, markWei, sides, extra),
            position.leverage,
          );
    if (position.marginMode === 1) {
      const equityWei = position.isolatedWei + this.unrealizedWei(address, marketId);
      return { equityWei, marginWei: before, marginAfterWei: after };
    }
    const cross = this.crossPool(address, { marketId, marginWei: before });
    return { equityWei: cross.equityWei, marginWei: cross.marginWei, marginAfterWei: cross.marginWei - before + after };
  }

  /**
   * Equity and initial margin of the account's cross pool. `known`: one market's margin the caller
   * just worked out from the same state (`pool`'s "before"), not worked out again.
   */
  crossPool(
    address: Address,
    known?: { readonly marketId: number; readonly marginWei: bigint },
  ): { equityWei: bigint; marginWei: bigint } {
    const account = this.account(address);
    let equityWei = account.crossWei;
    let marginWei = 0n;
    for (const [marketId, position] of account.positions) {
      if (position.marginMode !== 0) continue;
      equityWei += this.unrealizedWei(address, marketId);
      marginWei += marketId === known?.marketId ? known.marginWei : this.marketMarginWei(address, marketId);
    }
    return { equityWei, marginWei };
  }

  positionRecord(address: Address, marketId: number): PositionRecord {
    const market = this.context.market(marketId);
    const position = this.position(address, marketId);
    const size = abs(position.sizeSteps);
    const flat = position.sizeSteps === 0n;
    return {
      account: address,
      market_id: marketId,
      size: fixedToDecimal(size * market.stepSize.units, market.stepSize.scale),
      ...(flat ? {} : { side: position.sizeSteps > 0n ? ('BUY' as const) : ('SELL' as const) }),
      size_steps: position.sizeSteps.toString(),
      margin_mode: position.marginMode,
      isolated_usdc_balance: weiToDecimal(position.isolatedWei),
      leverage: String(position.leverage),
      avg_entry_price: weiToDecimal(position.avgEntryWei),
      mark_price: weiToDecimal(this.context.markWei(marketId)),
      unrealized_pnl: weiToDecimal(this.unrealizedWei(address, marketId)),
      realized_pnl: weiToDecimal(position.realizedPnlWei),
      liquidation_price: this.liquidationPrice(address, marketId),
    };
  }

  /** Decimal liquidation price of the position, or "" when flat, not reported or out of reach. */
  private liquidationPrice(address: Address, marketId: number): string {
    const position = this.position(address, marketId);
    if (!this.reportLiquidationPrice || position.sizeSteps === 0n) return '';
    let otherEquity = position.isolatedWei;
    let otherMaintenance = 0n;
    if (position.marginMode === 0) {
      otherEquity = this.crossPool(address).equityWei - this.unrealizedWei(address, marketId);
      for (const [id, other] of this.account(address).positions) {
        if (id === marketId || other.marginMode !== 0 || other.sizeSteps === 0n) continue;
        otherMaintenance += maintenanceMarginWei(this.context.market(id), other.sizeSteps, this.context.markWei(id));
      }
    }
    const price = liquidationPriceWei(
      this.context.market(marketId),
      position.sizeSteps,
      position.avgEntryWei,
      otherEquity,
      otherMaintenance,
    );
    return price === undefined ? '' : weiToDecimal(price);
  }

  /** Markets where the account holds a position, ascending by id. */
  openPositionMarkets(address: Address): number[] {
    const account = this.accounts.get(address);
    if (account === undefined) return [];
    return [...account.positions]
      .filter(([, position]) => position.sizeSteps !== 0n)
      .map(([marketId]) => marketId)
      .sort((a, b) => a - b);
  }

  balanceRecord(address: Address): BalanceRecord {
    const account = this.account(address);
    const pool = this.crossPool(address);
    return {
      account: address,
      balance: weiToDecimal(account.crossWei),
      equity: weiToDecimal(pool.equityWei),
      free_collateral: weiToDecimal(pool.equityWei - pool.marginWei),
    };
  }

  /** Registered accounts, in registration order. */
  addresses(): Address[] {
    return [...this.accounts.keys()];
  }
}

/** The side sums with one more (not yet placed) order counted on its side. */
function withExtra(
  market: MarketSpec,
  markWei: bigint,
  sides: SideNotionals,
  extra: MarginOrder | undefined,
): SideNotionals {
  if (extra === undefined) return sides;
  const notional = orderMarginNotionalWei(market, markWei, extra);
  return extra.side === 0
    ? { buys: sides.buys + notional, sells: sides.sells }
    : { buys: sides.buys, sells: sides.sells + notional };
}
