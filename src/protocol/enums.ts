import { InvalidValueError } from '../core/invalidValueError.js';

/** The venue's order enumerations (spec "Order enumerations"); the numbers are what is signed. */
export const Side = { Buy: 0, Sell: 1 } as const;
export type Side = (typeof Side)[keyof typeof Side];

export const OrderType = { Market: 0, Limit: 1 } as const;
export type OrderType = (typeof OrderType)[keyof typeof OrderType];

export const TimeInForce = { GTC: 0, GTT: 1, FOK: 2, IOC: 3 } as const;
export type TimeInForce = (typeof TimeInForce)[keyof typeof TimeInForce];

export const StpMode = { ExpireMaker: 0, ExpireTaker: 1, ExpireBoth: 2 } as const;
export type StpMode = (typeof StpMode)[keyof typeof StpMode];

export const MarginMode = { Cross: 0, Isolated: 1 } as const;
export type MarginMode = (typeof MarginMode)[keyof typeof MarginMode];

/** A TP/SL's kind as PlaceTpslOrder signs it (venue-tpsl.md "Typed data"). */
export const StopType = { TakeProfit: 0, StopLoss: 1 } as const;
export type StopType = (typeof StopType)[keyof typeof StopType];

/**
 * What a TP/SL watches, as PlaceTpslOrder signs it. The numbers are DOC's (its packed scheme: bit
 * clear = mark, set = last); one public client signs the reverse, which the simulator also takes
 * (docs/spec-gaps/real-wire.md "TP/SL orders: the disputed readings").
 */
export const StopPriceOption = { MarkPrice: 0, LastTradedPrice: 1 } as const;
export type StopPriceOption = (typeof StopPriceOption)[keyof typeof StopPriceOption];

/** Checks that `value` is one of the enumeration's numbers; names the members in the error. */
export function checkEnum<E extends Record<string, number>>(value: unknown, enumeration: E, field: string): E[keyof E] {
  // A key loop, not Object.entries: this runs four times per order word, and the pairs were garbage.
  for (const name in enumeration) {
    if (value === enumeration[name]) return value as E[keyof E];
  }
  throw new InvalidValueError(
    field,
    value,
    Object.entries(enumeration)
      .map(([name, n]) => `${n} (${name})`)
      .join(', '),
  );
}
