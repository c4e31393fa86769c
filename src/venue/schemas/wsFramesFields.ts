import { z } from 'zod';
import { normalizeDecimal } from '../../core/decimal.js';

/**
 * Field schemas shared by every WebSocket frame. Each rule here is mirrored by the hand-written
 * fast decoders in `src/venue/ws/fastDecode*.ts`; a property test holds the two equal, so a change
 * here must be made there too.
 */

/** uint256 fits in 78 decimal digits; longer is not a wei amount. */
export const WEI_PATTERN = /^\d{1,78}$/;
export const NANOS_PATTERN = /^\d{1,30}$/;
/** A decimal string as trades, fills and positions carry it (normalised after). */
export const DECIMAL_PATTERN = /^-?\d+(?:\.\d+)?$/;
/**
 * An orderbook price or quantity on the wire (venue-wire.md §3: decimal strings, "63218.5"): at
 * most 18 integer and 18 fraction digits. Below 1e18, so a level sent in integer wei (the old,
 * wrong reading, "63218500000000000000000") is refused as a departure instead of read as a price
 * 10^18 times too high.
 */
export const BOOK_DECIMAL_PATTERN = /^\d{1,18}(?:\.\d{1,18})?$/;
const BOOK_DECIMAL_EXPECTED = 'a decimal string below 1e18 with at most 18 decimals';
/** Canonical: no leading zeros, so "01" and "1" cannot both name market 1. */
export const MARKET_ID_PATTERN = /^(?:0|[1-9]\d{0,4})$/;
/** Market ids fit in 16 bits (the packed order word gives them 16). */
export const MARKET_ID_MAX = 65_535;
export const UINT32_MAX = 4_294_967_295;

/** `funding` is acknowledged and silent on the venue (venue-wire.md §3, funding). */
export const PUBLIC_CHANNELS = ['orderbook', 'oracle', 'trades', 'funding'] as const;
export const PRIVATE_CHANNELS = ['orders', 'positions', 'fills', 'account'] as const;
export const CHANNELS = [...PUBLIC_CHANNELS, ...PRIVATE_CHANNELS] as const;
export type PrivateChannel = (typeof PRIVATE_CHANNELS)[number];
export type ChannelName = (typeof CHANNELS)[number];

export function isPrivateChannel(name: string): name is PrivateChannel {
  return (PRIVATE_CHANNELS as readonly string[]).includes(name);
}

export const channelNameSchema = z.enum(CHANNELS);

/** Integer wei string (18 decimals), non-negative, as sent on the wire. */
export const weiStringSchema = z.string().regex(WEI_PATTERN, 'an integer wei string');

export const bookDecimalSchema = z.string().regex(BOOK_DECIMAL_PATTERN, BOOK_DECIMAL_EXPECTED);

/** Already-decimal wire values (trades, fills, positions) in canonical form. */
export const decimalSchema = z
  .string()
  .regex(DECIMAL_PATTERN, 'a decimal string')
  .transform((text) => normalizeDecimal(text, 'decimal'));

/** The WS sends market ids as numbers; REST sends them as strings. Both decode to a number. */
export const marketIdSchema = z.union([
  z.number().int().min(0).max(MARKET_ID_MAX),
  z.string().regex(MARKET_ID_PATTERN, 'a numeric market id').transform(Number).pipe(z.number().max(MARKET_ID_MAX)),
]);

export const nonNegativeIntSchema = z.number().int().min(0);

/** 0/1 (trades' maker_side, the single-position read), "BUY"/"SELL" (lists, channels), or "0"/"1". */
export const sideSchema = z
  .union([z.literal(0), z.literal(1), z.enum(['BUY', 'SELL', 'buy', 'sell', '0', '1'])])
  .transform((side): 'buy' | 'sell' =>
    side === 0 || side === 'BUY' || side === 'buy' || side === '0' ? 'buy' : 'sell',
  );

/** Ids the venue sends as strings that a client may see as numbers (protojson): both read as a string. */
export const idSchema = z.union([z.string().min(1), z.number().int().min(0)]).transform(String);

/** The channel a server frame names, if it is one of ours. */
export function asChannelName(name: string | undefined): ChannelName | undefined {
  return name !== undefined && (CHANNELS as readonly string[]).includes(name) ? (name as ChannelName) : undefined;
}
