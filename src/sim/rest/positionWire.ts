import { addDecimals, multiplyDecimals, negateDecimal } from '../../core/decimal.js';
import type { PositionRowWire, PortfolioPositionWire, PositionWire } from '../../venue/schemas/restCanonical.js';
import type { PositionRecord } from '../exchange/exchangeRecords.js';

/**
 * A position in the three shapes the venue reads it out (venue-wire.md §2): the single read
 * (int side and margin_mode, "" for every absent number, market_id "0" when flat), a row of the
 * list (side by name, signed size) and a portfolio position (int side). Fields the simulator
 * does not model (funding, ADL price, margin requirements) are "" in the single read.
 */

const FLAT_POSITION: PositionWire = Object.freeze({
  market_id: '0',
  size: '',
  quote_amount: '',
  last_funding_payment: '',
  margin_mode: 0,
  side: 0,
  isolated_usdc_balance: '',
  avg_entry_price: '',
  mark_price: '',
  index_price: '',
  leverage: '',
  unrealized_pnl: '',
  liquidation_price: '',
  margin_balance: '',
  initial_margin_requirement: '',
  maintenance_margin_requirement: '',
  quote_balance: '',
  free_isolated_usdc_balance: '',
  adl_price: '',
});

export function isOpenPosition(record: PositionRecord): boolean {
  return record.side !== undefined && !/^0*(\.0*)?$/.test(record.size);
}

function sideNumber(record: PositionRecord): 0 | 1 {
  return record.side === 'SELL' ? 1 : 0;
}

function signedSize(record: PositionRecord): string {
  return record.side === 'SELL' ? negateDecimal(record.size) : record.size;
}

/** |size| × average entry, with the size's sign. */
function quoteAmount(record: PositionRecord): string {
  return multiplyDecimals(signedSize(record), record.avg_entry_price);
}

/** GET /v1/account/position's `position`. */
export function positionWire(record: PositionRecord, indexPrice: string): PositionWire {
  if (!isOpenPosition(record)) return FLAT_POSITION;
  return {
    ...FLAT_POSITION,
    market_id: String(record.market_id),
    size: record.size,
    quote_amount: quoteAmount(record),
    last_funding_payment: '0',
    margin_mode: record.margin_mode,
    side: sideNumber(record),
    isolated_usdc_balance: record.isolated_usdc_balance,
    avg_entry_price: record.avg_entry_price,
    mark_price: record.mark_price,
    index_price: indexPrice,
    leverage: record.leverage,
    unrealized_pnl: record.unrealized_pnl,
    liquidation_price: record.liquidation_price,
    margin_balance: record.margin_mode === 1 ? addDecimals(record.isolated_usdc_balance, record.unrealized_pnl) : '',
  };
}

/** One row of GET /v1/positions. */
export function positionRowWire(record: PositionRecord): PositionRowWire {
  return {
    account: record.account,
    market_id: String(record.market_id),
    size: signedSize(record),
    quote_amount: quoteAmount(record),
    side: record.side ?? 'BUY',
    margin_mode: record.margin_mode,
    isolated_usdc_balance: record.isolated_usdc_balance,
    last_funding_payment: '0',
    leverage: record.leverage,
    avg_entry_price: record.avg_entry_price,
  };
}

/** One position of GET /v1/portfolio/details. */
export function portfolioPositionWire(record: PositionRecord, marketName: string): PortfolioPositionWire {
  return {
    market_id: String(record.market_id),
    market_name: marketName,
    size: signedSize(record),
    side: sideNumber(record),
    margin_mode: record.margin_mode,
    avg_entry_price: record.avg_entry_price,
    mark_price: record.mark_price,
    unrealized_pnl: record.unrealized_pnl,
    liquidation_price: record.liquidation_price,
    leverage: record.leverage,
  };
}
