import { z } from 'zod';
import { OrderType, Side, StopPriceOption, StopType, TimeInForce } from '../../protocol/enums.js';

/**
 * The TP/SL enumerations by the names the venue's records use (venue-tpsl.md "The TpslOrder
 * record"), each list in the order of the numbers PlaceTpslOrder signs, so a name's index is its
 * signed number. One place: the client sends these names, the decoders read a name or a number
 * (disputed: TS sends some enums as numbers, TS2 others), and the simulator maps them to the
 * signed numbers through `signedNumberOf`.
 */
export const TPSL_SIDES = ['BUY', 'SELL'] as const;
export const STOP_TYPES = ['TAKE_PROFIT', 'STOP_LOSS'] as const;
export const TPSL_ORDER_TYPES = ['MARKET', 'LIMIT'] as const;
/** DOC's numbering (mark 0, last 1); the record also shows PRICE_OPTION_NONE (never sent). */
export const STOP_PRICE_OPTIONS = ['MARK_PRICE', 'LAST_TRADED_PRICE'] as const;
export const TPSL_TIFS = ['GTC', 'GTT', 'FOK', 'IOC'] as const;
/** Active = ACCEPTED or TRIGGERED (FB `TpslOrder.active`). */
export const TPSL_STATUSES = [
  'TPSL_ORDER_STATUS_ACCEPTED',
  'TPSL_ORDER_STATUS_TRIGGERED',
  'TPSL_ORDER_STATUS_SUCCESS',
  'TPSL_ORDER_STATUS_CANCELLED',
] as const;
/** The list's `stop_type` filter: the venue's default is TAKE_PROFIT, so STOP_TYPE_NONE is sent for both. */
export const STOP_TYPE_FILTERS = ['STOP_TYPE_NONE', 'TAKE_PROFIT', 'STOP_LOSS'] as const;

export type TpslSide = (typeof TPSL_SIDES)[number];
export type StopTypeName = (typeof STOP_TYPES)[number];
export type TpslOrderTypeName = (typeof TPSL_ORDER_TYPES)[number];
export type StopPriceOptionName = (typeof STOP_PRICE_OPTIONS)[number];
export type TpslTif = (typeof TPSL_TIFS)[number];
export type TpslStatus = (typeof TPSL_STATUSES)[number];
export type StopTypeFilter = (typeof STOP_TYPE_FILTERS)[number];

/** The statuses of an order the venue still holds: it may yet fire, or is firing. */
export const ACTIVE_TPSL_STATUSES: readonly TpslStatus[] = [
  'TPSL_ORDER_STATUS_ACCEPTED',
  'TPSL_ORDER_STATUS_TRIGGERED',
];

/**
 * An enumeration as the venue's protojson gateway takes it: its name, or its number as a JSON
 * number or a digit string (protojson reads either for an enum). The output is the name.
 */
export function wireNameSchema<const N extends readonly [string, ...string[]]>(names: N, what: string) {
  const choices = `${names.map((name, i) => `"${name}" (${i})`).join(', ')}`;
  return z
    .union([z.string(), z.number()], { error: `expected the ${what} by name or number: ${choices}` })
    .transform((value, ctx): N[number] => {
      const index = typeof value === 'number' ? value : /^\d{1,2}$/.test(value) ? Number(value) : -1;
      const name = (names as readonly string[]).includes(value as string) ? value : names[index];
      if (typeof name === 'string') return name;
      ctx.issues.push({ code: 'custom', input: value, message: `expected the ${what}: ${choices}` });
      return z.NEVER;
    });
}

/** The number PlaceTpslOrder signs for each name (`enums.ts`), checked against the lists' order at load. */
const SIGNED: Readonly<Record<string, number>> = {
  BUY: Side.Buy,
  SELL: Side.Sell,
  TAKE_PROFIT: StopType.TakeProfit,
  STOP_LOSS: StopType.StopLoss,
  MARKET: OrderType.Market,
  LIMIT: OrderType.Limit,
  MARK_PRICE: StopPriceOption.MarkPrice,
  LAST_TRADED_PRICE: StopPriceOption.LastTradedPrice,
  GTC: TimeInForce.GTC,
  GTT: TimeInForce.GTT,
  FOK: TimeInForce.FOK,
  IOC: TimeInForce.IOC,
};

for (const list of [TPSL_SIDES, STOP_TYPES, TPSL_ORDER_TYPES, STOP_PRICE_OPTIONS, TPSL_TIFS] as const) {
  list.forEach((name, index) => {
    if (SIGNED[name] !== index) throw new Error(`tpslNames: ${name} is listed at ${index}, signed as ${SIGNED[name]}`);
  });
}

/** The number a name is signed as in PlaceTpslOrder. */
export function signedNumberOf(
  name: TpslSide | StopTypeName | TpslOrderTypeName | StopPriceOptionName | TpslTif,
): number {
  return SIGNED[name] as number;
}
