import type { Position } from '../../../src/venue/schemas/restAccount.js';

/** `GET /v1/account/position` as decoded: flat (size null, market "0") or held in market 1. */
export function positionRecord(size: string | null, side: Position['side']): Position {
  return {
    market_id: size === null ? '0' : '1',
    size,
    side,
    margin_mode: size === null ? null : 0,
    isolated_usdc_balance: null,
    avg_entry_price: null,
    mark_price: null,
    leverage: null,
    unrealized_pnl: null,
    liquidation_price: null,
  };
}
