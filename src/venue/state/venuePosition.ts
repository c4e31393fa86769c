import type { RestCallOptions, RestClient } from '../rest/restClient.js';
import { isFlatPosition, type Position } from '../schemas/restAccount.js';

/** Which way a position points; a flat one keeps the side the venue gave it (or 'buy'). */
export type PositionSide = 'buy' | 'sell';

/**
 * One market's position from GET /v1/account/position, read the one way every reader uses: the
 * engine's and the journal's reconciliations, `perpbot status`, the landing evidence. Absent
 * values ("" on the wire) are left out, never read as zero.
 */
export interface VenuePosition {
  readonly marketId: number;
  /** The venue's flat record (`isFlatPosition`: size empty or zero, or market_id "0"). */
  readonly flat: boolean;
  readonly side: PositionSide;
  /** Absolute size; "0" when flat. */
  readonly size: string;
  /** Negative when short; "0" when flat. */
  readonly signedSize: string;
  readonly avgEntryPrice?: string;
  /** 0 cross, 1 isolated; left out when the venue sends anything else. */
  readonly marginMode?: 0 | 1;
  /** Margin set aside for the market, flat or not. */
  readonly isolatedBalance?: string;
  readonly unrealizedPnl?: string;
  readonly leverage?: string;
  readonly markPrice?: string;
  readonly liquidationPrice?: string;
}

/**
 * The one normalisation of a position read. venue-wire.md §2 leaves open whether the single
 * position's `size` is signed or absolute, so either reading gives the same result: a negative size
 * is a short whatever `side` says, otherwise `side` decides (SELL: short). Flatness is
 * `isFlatPosition`, the size's (venue-wire.md §2: size, not a kept side, says flat).
 */
export function normalizePosition(marketId: number, position: Position): VenuePosition {
  const flat = isFlatPosition(position);
  const raw = position.size ?? '0';
  const negative = raw.startsWith('-');
  const side: PositionSide = negative || position.side === 'SELL' ? 'sell' : 'buy';
  const size = flat ? '0' : negative ? raw.slice(1) : raw;
  const out: { -readonly [K in keyof VenuePosition]: VenuePosition[K] } = {
    marketId,
    flat,
    side,
    size,
    signedSize: flat || side === 'buy' ? size : `-${size}`,
  };
  if (isSet(position.avg_entry_price)) out.avgEntryPrice = position.avg_entry_price;
  if (position.margin_mode === 0 || position.margin_mode === 1) out.marginMode = position.margin_mode;
  if (isSet(position.isolated_usdc_balance)) out.isolatedBalance = position.isolated_usdc_balance;
  if (isSet(position.unrealized_pnl)) out.unrealizedPnl = position.unrealized_pnl;
  if (isSet(position.leverage)) out.leverage = position.leverage;
  if (isSet(position.mark_price)) out.markPrice = position.mark_price;
  if (isSet(position.liquidation_price)) out.liquidationPrice = position.liquidation_price;
  return out;
}

/** A value the venue sent: its "" for absent arrives as null (or, decoded elsewhere, as ""). */
function isSet(value: string | null | undefined): value is string {
  return value !== null && value !== undefined && value !== '';
}

/** GET /v1/account/position for one market, normalised. */
export async function readVenuePosition(
  rest: Pick<RestClient, 'position'>,
  account: string,
  marketId: number,
  callOptions?: RestCallOptions,
): Promise<VenuePosition> {
  return normalizePosition(marketId, await rest.position({ account, market_id: String(marketId) }, callOptions));
}
