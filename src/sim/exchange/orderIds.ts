import { InvalidValueError } from '../../core/invalidValueError.js';

/**
 * Order identity. The venue exposes three forms (spec "Open order", venue-facts "Orders"):
 * - wide_order_id = (sequence << 1) | sideBit, so resting_order_id = wide >> 1 is the sequence
 *   number, unique across markets, and the low bit tells buy (0) from sell (1);
 * - resting_order_id = wide >> 1, what the cancel action hash commits to;
 * - order_id: 0x + 24 bytes hex, the venue's length (venue-wire.md §4.15: "invalid order_id
 *   length: expected 24"), whose first 8 bytes are the wide id (so clients can derive the
 *   resting id from it) and whose last 16 bytes are two splitmix64 outputs seeded by the wide
 *   id (deterministic, cheap, and looking as opaque as the venue's).
 */
const WIDE_MAX = (1n << 64n) - 1n;

export function wideOrderId(sequence: bigint, side: 0 | 1): bigint {
  const wide = (sequence << 1n) | BigInt(side);
  if (sequence < 1n || wide > WIDE_MAX)
    throw new InvalidValueError('order sequence', sequence, `1 to ${WIDE_MAX >> 1n}`);
  return wide;
}

export function restingOrderIdOf(wide: bigint): bigint {
  return wide >> 1n;
}

export function orderIdHex(wide: bigint): string {
  const head = wide.toString(16).padStart(16, '0');
  let state = wide;
  let tail = '';
  for (let i = 0; i < 2; i++) {
    state = BigInt.asUintN(64, state + GOLDEN_GAMMA);
    tail += splitmix64Finish(state).toString(16).padStart(16, '0');
  }
  return `0x${head}${tail}`;
}

const GOLDEN_GAMMA = 0x9e3779b97f4a7c15n;

// BigInt.asUintN(64, x) is x mod 2^64, as `& (2^64 - 1)` is, in half the time (every order, and
// every recorded book level a replay shows, gets an id).
function splitmix64Finish(x: bigint): bigint {
  let z = x;
  z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
  z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
  return z ^ (z >> 31n);
}

/** The wide id carried by the first 8 bytes of an order_id, or undefined if it is not one. */
export function wideFromOrderId(orderId: string): bigint | undefined {
  const match = /^(?:0x)?([0-9a-fA-F]{48})$/.exec(orderId);
  if (match?.[1] === undefined) return undefined;
  return BigInt(`0x${match[1].slice(0, 16)}`);
}
