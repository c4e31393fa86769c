import { decimalToWei } from '../core/decimal.js';
import { CRC32_START, crc32Append, crc32Byte, crc32Part, crc32Result, type Crc32Part } from './crc32Parts.js';

/** A book level as exact decimal strings (what REST and the decoded WebSocket levels carry). */
export interface ChecksumLevel {
  readonly price: string;
  readonly quantity: string;
}

/**
 * The text the orderbook checksum covers (venue-wire.md §3, checksum formula): over the whole
 * book, bids best-first (descending) and asks best-first (ascending) interleaved bid0, ask0, bid1,
 * ask1, …, the longer side continuing alone; each level as its price and quantity converted to
 * integer wei strings (the wire carries decimals; only the checksum input is wei); everything
 * joined by ":". Levels must already be in book order; the function does not sort.
 */
export function orderbookChecksumText(bids: readonly ChecksumLevel[], asks: readonly ChecksumLevel[]): string {
  const parts: string[] = [];
  const depth = Math.max(bids.length, asks.length);
  for (let i = 0; i < depth; i++) {
    const bid = bids[i];
    const ask = asks[i];
    if (bid !== undefined) parts.push(...levelParts(bid, `bids[${i}]`));
    if (ask !== undefined) parts.push(...levelParts(ask, `asks[${i}]`));
  }
  return parts.join(':');
}

/**
 * CRC32 (IEEE, as zlib computes it) of `orderbookChecksumText`, an unsigned 32-bit number. The
 * simulator stamps its updates with this; it converts each level and hands the wei texts to
 * `orderbookChecksumOfWire`, the code the client checks them with.
 */
export function orderbookChecksum(bids: readonly ChecksumLevel[], asks: readonly ChecksumLevel[]): number {
  return orderbookChecksumOfWire(
    bids.map((level, i) => weiLevel(level, `bids[${i}]`)),
    asks.map((level, i) => weiLevel(level, `asks[${i}]`)),
  );
}

/** A book level as canonical integer wei texts (no leading zeros). */
export interface WireChecksumLevel {
  readonly priceWeiText: string;
  readonly quantityWeiText: string;
  /** `priceWeiText:quantityWeiText` as a CRC part, when the level keeps it (a decoded level does, once worked out). */
  readonly checksumPart?: Crc32Part;
}

/**
 * The checksum over levels that already hold their wei texts, as the client's decoded levels do
 * (cached per level): the same text without converting each level again, which the client would
 * pay on every update of a deep book. A level that stands from one update to the next keeps its
 * `price:quantity` text, so each update joins one text per level.
 */
export function orderbookChecksumOfWire(
  bids: readonly WireChecksumLevel[],
  asks: readonly WireChecksumLevel[],
): number {
  return orderbookChecksumOfPairs(bids, asks, pairPartOf);
}

/**
 * The checksum over one `priceWei:quantityWei` text per level (what the simulator's publisher keeps
 * for each level it published), each as a CRC part (`checksumPair`): the CRC of the same text as
 * `orderbookChecksumText`, since the level's two parts are joined by the same ":" as everything
 * else, folded part by part instead of joined (`crc32Parts.ts`).
 */
export function orderbookChecksumOfPairs<L>(
  bids: readonly L[],
  asks: readonly L[],
  pairOf: (level: L) => Crc32Part,
): number {
  let register = CRC32_START;
  let first = true;
  const depth = Math.max(bids.length, asks.length);
  for (let i = 0; i < depth; i++) {
    const bid = bids[i];
    const ask = asks[i];
    if (bid !== undefined) {
      register = crc32Append(first ? register : crc32Byte(register, COLON), pairOf(bid));
      first = false;
    }
    if (ask !== undefined) {
      register = crc32Append(first ? register : crc32Byte(register, COLON), pairOf(ask));
      first = false;
    }
  }
  return crc32Result(register);
}

const COLON = 0x3a;

const pairPartOf = (level: WireChecksumLevel): Crc32Part =>
  level.checksumPart ?? checksumPair(level.priceWeiText, level.quantityWeiText);

/**
 * One level's `priceWei:quantityWei` text, for a level that keeps it while it stands: the checksum
 * joins it on every update of the book. Made flat once here: V8 keeps a joined text of this length
 * as a rope of its parts, and joining ropes read them again on every join (the join of a 40-level
 * book's texts took 3 to 5 us as ropes, 1 to 2 us flat). Reading a character flattens it in place.
 */
export function checksumPairText(priceWeiText: string, quantityWeiText: string): string {
  const text = `${priceWeiText}:${quantityWeiText}`;
  text.charCodeAt(0);
  return text;
}

/** One level's `priceWei:quantityWei` text as a CRC part: what a level keeps while it stands. */
export function checksumPair(priceWeiText: string, quantityWeiText: string): Crc32Part {
  return crc32Part(checksumPairText(priceWeiText, quantityWeiText));
}

function weiLevel(level: ChecksumLevel, field: string): WireChecksumLevel {
  const [priceWeiText, quantityWeiText] = levelParts(level, field);
  return { priceWeiText, quantityWeiText };
}

function levelParts(level: ChecksumLevel, field: string): [string, string] {
  return [
    decimalToWei(level.price, `${field}.price`).toString(),
    decimalToWei(level.quantity, `${field}.quantity`).toString(),
  ];
}
