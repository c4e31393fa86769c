import { BoundedMap } from '../../core/boundedMap.js';
import { decimalTextToWeiText, weiTextToDecimal } from '../../core/decimal.js';
import type { Crc32Part } from '../../protocol/crc32Parts.js';
import { checksumPair } from '../../protocol/orderbookChecksum.js';

/** One level of a decoded book, as the local book, the checksum and strategies read it. */
export interface OrderbookLevel {
  /** Exact decimal, canonical ("63220.0" reads "63220"). */
  readonly price: string;
  readonly quantity: string;
  /** price × 10^18, for exact arithmetic. */
  readonly priceWei: bigint;
  readonly quantityWei: bigint;
  /**
   * The same as canonical integer text: what the checksum covers, and the local book's key (two
   * spellings of one price are one level).
   */
  readonly priceWeiText: string;
  readonly quantityWeiText: string;
  readonly orderCount: number;
  readonly isDeletion: boolean;
}

/**
 * One orderbook level kept as the wire's decimal strings, converted on first read. A book update
 * carries dozens of levels and a strategy reads a few of them; converting every level up front
 * cost more than parsing the frame (ws_ingest benchmark). The decoders validate the text (a
 * decimal below 1e18 with at most 18 decimals) before constructing one, so the lazy conversions
 * cannot fail. The wei text is cached: the local book keys levels by it (so "63220" and "63220.0"
 * are one price) and the checksum covers it for every level on every update (venue-wire.md §3,
 * checksum formula).
 */
export class WireOrderbookLevel implements OrderbookLevel {
  #priceWeiText: string | undefined;
  #quantityWeiText: string | undefined;
  #price: string | undefined;
  #quantity: string | undefined;
  #priceWei: bigint | undefined;
  #quantityWei: bigint | undefined;
  #checksumPart: Crc32Part | undefined;

  constructor(
    private readonly wirePrice: string,
    private readonly wireQuantity: string,
    readonly orderCount: number,
  ) {}

  get priceWeiText(): string {
    return (this.#priceWeiText ??= weiTextOf(this.wirePrice));
  }

  get quantityWeiText(): string {
    return (this.#quantityWeiText ??= weiTextOf(this.wireQuantity));
  }

  /** What the checksum covers of this level (`priceWei:quantityWei`, a CRC part), kept while it stands in the book. */
  get checksumPart(): Crc32Part {
    return (this.#checksumPart ??= checksumPair(this.priceWeiText, this.quantityWeiText));
  }

  /** Canonical: "063220.50" reads "63220.5". */
  get price(): string {
    return (this.#price ??= isCanonical(this.wirePrice) ? this.wirePrice : weiTextToDecimal(this.priceWeiText));
  }

  get quantity(): string {
    return (this.#quantity ??= isCanonical(this.wireQuantity)
      ? this.wireQuantity
      : weiTextToDecimal(this.quantityWeiText));
  }

  get priceWei(): bigint {
    return (this.#priceWei ??= BigInt(this.priceWeiText));
  }

  get quantityWei(): bigint {
    return (this.#quantityWei ??= BigInt(this.quantityWeiText));
  }

  /** Quantity 0 deletes the level (venue-wire.md §3, orderbook update). */
  get isDeletion(): boolean {
    return this.quantityWeiText === '0';
  }

  /** Logs and JSON show the decoded values. */
  toJSON(): { price: string; quantity: string; orderCount: number } {
    return { price: this.price, quantity: this.quantity, orderCount: this.orderCount };
  }
}

/**
 * Wei texts of the decimals that levels carry, remembered: a book repeats a few hundred prices
 * and sizes from one update to the next, and every level of every update is converted (a replay
 * converts each recorded level twice: the driven market's and the bot's).
 */
const weiTexts = new BoundedMap<string, string>(10_000);

function weiTextOf(decimal: string): string {
  return weiTexts.remember(decimal, decimalTextToWeiText);
}

/**
 * Whether a wire decimal (already checked: digits, maybe a point and digits) is already in the
 * form the conversion through wei gives: no leading zero before the point, no trailing zero after
 * it. The venue sends its levels so ("63218.5", "0.004744"), and a strategy reads the top of the
 * book on every update: those reads skip two conversions.
 */
function isCanonical(decimal: string): boolean {
  if (decimal.charCodeAt(0) === 48 && decimal.length > 1 && decimal.charCodeAt(1) !== 46) return false;
  return decimal.indexOf('.') < 0 || decimal.charCodeAt(decimal.length - 1) !== 48;
}

/** Orders canonical non-negative integer strings numerically without converting them. */
export function compareIntegerText(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
