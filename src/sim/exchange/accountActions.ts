import type { Address } from '../../core/address.js';
import type { AccountLedger } from './accountLedger.js';
import { invalidArgument, reverted } from './exchangeRefusal.js';
import type { MarketSpec } from './markets.js';

/**
 * The three per-market account actions (leverage, margin mode, isolated margin) as venue rules
 * over the ledger. Each either changes state completely or throws and changes nothing.
 */

const INT128_MAX = (1n << 127n) - 1n;
const INT128_MIN = -(1n << 127n);

export function updateLeverage(ledger: AccountLedger, account: Address, market: MarketSpec, leverage: number): void {
  if (!Number.isInteger(leverage) || leverage < 1 || leverage > 255) {
    throw invalidArgument(`leverage must be an integer 1 to 255 (uint8), got ${String(leverage)}`);
  }
  if (leverage > market.maxLeverage) {
    throw invalidArgument(
      `leverage ${leverage} is above max_leverage ${market.definition.config.max_leverage} of market ${market.marketId}`,
    );
  }
  const position = ledger.position(account, market.marketId);
  const previous = position.leverage;
  const before = ledger.pool(account, market.marketId);
  position.leverage = leverage;
  const after = ledger.pool(account, market.marketId);
  if (after.marginWei > before.marginWei && after.marginWei > after.equityWei) {
    position.leverage = previous;
    throw reverted(
      'UpdateLeverage',
      'InsufficientMargin',
      [after.marginWei, after.equityWei],
      'lower leverage raises the margin the open position and orders need',
    );
  }
}

export function updateMarginMode(
  ledger: AccountLedger,
  account: Address,
  market: MarketSpec,
  marginMode: number,
  openOrderCount: number,
): void {
  if (marginMode !== 0 && marginMode !== 1)
    throw invalidArgument(`margin_mode must be 0 (Cross) or 1 (Isolated), got ${String(marginMode)}`);
  const position = ledger.position(account, market.marketId);
  if (position.sizeSteps !== 0n) {
    throw reverted(
      'UpdateMarginMode',
      'OpenPositionExists',
      [position.sizeSteps],
      'close the position in this market before switching margin mode',
    );
  }
  if (position.marginMode === marginMode) return;
  if (openOrderCount > 0) {
    throw reverted(
      'UpdateMarginMode',
      'OpenOrdersExist',
      [openOrderCount],
      'cancel the open orders in this market before switching margin mode',
    );
  }
  if (position.marginMode === 1) {
    // Back to cross: whatever was set aside for the market returns to the cross balance.
    ledger.account(account).crossWei += position.isolatedWei;
    position.isolatedWei = 0n;
  }
  position.marginMode = marginMode;
}

/** amountWei: USD wei (18 decimals), positive adds to the isolated balance, negative removes. */
export function updateIsolatedMargin(
  ledger: AccountLedger,
  account: Address,
  market: MarketSpec,
  amountWei: bigint,
): void {
  if (amountWei < INT128_MIN || amountWei > INT128_MAX)
    throw invalidArgument(`amount must fit int128, got ${amountWei}`);
  if (amountWei === 0n) throw invalidArgument('amount must not be 0');
  const position = ledger.position(account, market.marketId);
  if (position.marginMode !== 1) {
    throw reverted(
      'UpdateIsolatedMargin',
      'NotIsolatedMarginMode',
      [market.marketId],
      'switch the market to isolated margin (margin_mode 1) first',
    );
  }
  const cross = ledger.account(account);
  if (amountWei > 0n) {
    const pool = ledger.crossPool(account);
    const free = min(pool.equityWei - pool.marginWei, cross.crossWei);
    if (amountWei > free) {
      throw reverted(
        'UpdateIsolatedMargin',
        'InsufficientCollateral',
        [amountWei, free > 0n ? free : 0n],
        'amounts are USD wei (18 decimals): requested, then free cross collateral',
      );
    }
  } else {
    const pool = ledger.pool(account, market.marketId);
    const removable = min(pool.equityWei - pool.marginWei, position.isolatedWei);
    if (-amountWei > removable) {
      throw reverted(
        'UpdateIsolatedMargin',
        'InsufficientIsolatedMargin',
        [-amountWei, removable > 0n ? removable : 0n],
        'amounts are USD wei (18 decimals): requested, then removable without breaking the initial margin',
      );
    }
  }
  cross.crossWei -= amountWei;
  position.isolatedWei += amountWei;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
