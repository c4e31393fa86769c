import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { InvalidValueError } from '../../core/invalidValueError.js';

/**
 * Order identity. The venue exposes three forms (spec "Open order", venue-facts "Orders"):
 * - wide_order_id = (sequence << 1) | sideBit, so resting_order_id = wide >> 1 is the sequence
 *   number, unique across markets, and the low bit tells buy (0) from sell (1);
 * - resting_order_id = wide >> 1, what the cancel action hash commits to;
 * - order_id: 0x + 32 bytes hex, whose first 8 bytes are the wide id (so clients can derive the
 *   resting id from it) and whose last 24 bytes are a hash of the wide id (deterministic, and
 *   distinct from any other order's).
 */
const WIDE_MAX = (1n << 64n) - 1n;

export function wideOrderId(sequence: bigint, side: 0 | 1): bigint {
  const wide = (sequence << 1n) | BigInt(side);
  if (sequence < 1n || wide > WIDE_MAX) throw new InvalidValueError('order sequence', sequence, `1 to ${WIDE_MAX >> 1n}`);
  return wide;
}

export function restingOrderIdOf(wide: bigint): bigint {
  return wide >> 1n;
}

export function orderIdHex(wide: bigint): string {
  const head = wide.toString(16).padStart(16, '0');
  const tail = bytesToHex(sha256(utf8ToBytes(`perpbot-sim order ${wide.toString()}`))).slice(0, 48);
  return `0x${head}${tail}`;
}

/** The wide id carried by the first 8 bytes of an order_id, or undefined if it is not one. */
export function wideFromOrderId(orderId: string): bigint | undefined {
  const match = /^(?:0x)?([0-9a-fA-F]{64})$/.exec(orderId);
  if (match?.[1] === undefined) return undefined;
  return BigInt(`0x${match[1].slice(0, 16)}`);
}
