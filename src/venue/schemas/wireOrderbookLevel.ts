import { weiTextToDecimal } from '../../core/decimal.js';
import type { OrderbookLevel } from './wsFramesOrderbook.js';

/**
 * One orderbook level kept as the wire's integer wei strings, converted on first read. A book
 * update carries dozens of levels and a strategy reads a few of them; converting every level to a
 * decimal and two bigints up front cost more than parsing the frame (ws_ingest benchmark). The
 * decoders validate the text (`^\d{1,78}$`) before constructing one, so the lazy conversions
 * cannot fail. Leading zeros are dropped so that the text is the canonical integer the checksum
 * covers and the key the local book uses.
 */
export class WireOrderbookLevel implements OrderbookLevel {
  readonly priceText: string;
  readonly quantityText: string;
  #price: string | undefined;
  #quantity: string | undefined;
  #priceWei: bigint | undefined;
  #quantityWei: bigint | undefined;

  constructor(
    priceText: string,
    quantityText: string,
    readonly orderCount: number,
  ) {
    this.priceText = canonicalInteger(priceText);
    this.quantityText = canonicalInteger(quantityText);
  }

  get price(): string {
    return (this.#price ??= weiTextToDecimal(this.priceText));
  }

  get quantity(): string {
    return (this.#quantity ??= weiTextToDecimal(this.quantityText));
  }

  get priceWei(): bigint {
    return (this.#priceWei ??= BigInt(this.priceText));
  }

  get quantityWei(): bigint {
    return (this.#quantityWei ??= BigInt(this.quantityText));
  }

  /** Quantity 0 deletes the level (venue-facts "WebSocket"). */
  get isDeletion(): boolean {
    return this.quantityText === '0';
  }

  /** Logs and JSON show the decoded values, not the wire text. */
  toJSON(): { price: string; quantity: string; orderCount: number } {
    return { price: this.price, quantity: this.quantity, orderCount: this.orderCount };
  }
}

function canonicalInteger(digits: string): string {
  if (digits.length < 2 || digits.charCodeAt(0) !== 48) return digits;
  let start = 1;
  while (start < digits.length - 1 && digits.charCodeAt(start) === 48) start++;
  return digits.slice(start);
}

/** Orders canonical non-negative integer strings numerically without converting them. */
export function compareIntegerText(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
