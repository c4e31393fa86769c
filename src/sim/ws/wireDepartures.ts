import { decimalToWei } from '../../core/decimal.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import type { CanonicalOrderbookFrame } from '../../venue/schemas/wsWireCanonical.js';

/**
 * Test switches that make the simulator depart from the venue's wire on purpose, so that drift
 * detection (`perpbot probe`, the decode-failure counters) can be shown to work. Off by default.
 * - `orderbook-wei`: orderbook levels as integer wei strings, the shape the simulator used to send
 *   before venue-wire.md §3 showed decimals. Everything else stays as the venue sends it.
 */
export const WIRE_DEPARTURES = ['orderbook-wei'] as const;
export type WireDeparture = (typeof WIRE_DEPARTURES)[number];

export function checkWireDepartures(departures: readonly string[], field: string): readonly WireDeparture[] {
  for (const departure of departures) {
    if (!(WIRE_DEPARTURES as readonly string[]).includes(departure))
      throw new InvalidValueError(field, departure, `one of ${WIRE_DEPARTURES.join(', ')}`);
  }
  return Object.freeze([...new Set(departures)] as WireDeparture[]);
}

/** The orderbook frame as it goes out under `departures`: the canonical one unless departed. */
export function departedOrderbookFrame(frame: CanonicalOrderbookFrame, departures: readonly WireDeparture[]): object {
  if (!departures.includes('orderbook-wei')) return frame;
  const toWei = (level: CanonicalOrderbookFrame['data']['bids'][number]): object => ({
    price: decimalToWei(level.price, 'price').toString(),
    quantity: decimalToWei(level.quantity, 'quantity').toString(),
    order_count: level.order_count,
  });
  return { ...frame, data: { ...frame.data, bids: frame.data.bids.map(toWei), asks: frame.data.asks.map(toWei) } };
}
