import { InvalidValueError } from '../../core/invalidValueError.js';

/**
 * Where one simulator run numbers its orders, fills and trades from: the first order gets
 * sequence `order + 1`, the first fill id `fill + 1`, the first trade id `trade + 1`.
 *
 * The venue's ids are unique for good. Counters that restart at 1 hand every run the same fill
 * ids, and a journal kept across runs takes the second run's fills for the first run's (issue 25:
 * 4 fills journaled for 11 position changes). A run therefore starts each counter at a random
 * base: two runs, in turn or at once, share an id only if their bases fall within as many ids of
 * each other as they hand out, a chance of about n / 2^60 for n ids.
 *
 * Bases stay below 2^61, so a sequence stays below 2^62 for any number of orders a run can place:
 * the wide order id (sequence << 1 | side) then fits a signed 64-bit integer as well as an
 * unsigned one (the wire calls it a 64-bit integer without saying which), and resting_order_id
 * (the sequence) fits the cancel hash's uint256 with room to spare.
 */
export interface SimIdBases {
  readonly order: bigint;
  readonly fill: bigint;
  readonly trade: bigint;
}

/** Bases are drawn below this (see above). */
export const ID_BASE_LIMIT = 1n << 61n;

/** Every counter from 1, the same ids every run: what a test that asks for fixed ids gets. */
export const COUNTING_FROM_ONE: SimIdBases = Object.freeze({ order: 0n, fill: 0n, trade: 0n });

/**
 * Three bases from 24 random bytes (8 each, big-endian, reduced below 2^61). The exchange core
 * draws nothing itself: the runtime hands it bytes from the operating system (`randomIdBases`).
 */
export function idBasesFrom(bytes: Uint8Array): SimIdBases {
  if (bytes.length < 24) throw new RangeError(`idBasesFrom: expected 24 random bytes, got ${bytes.length}`);
  const base = (at: number): bigint => uint64At(bytes, at) % ID_BASE_LIMIT;
  return checkIdBases({ order: base(0), fill: base(8), trade: base(16) });
}

/** Refuses a base outside 0..2^61-1: ids past it could overflow what readers of the wide id hold. */
export function checkIdBases(bases: SimIdBases): SimIdBases {
  for (const [name, value] of Object.entries(bases) as [keyof SimIdBases, bigint][]) {
    if (value < 0n || value >= ID_BASE_LIMIT)
      throw new InvalidValueError(`idBases.${name}`, value, `an integer 0 to ${ID_BASE_LIMIT - 1n}`);
  }
  return Object.freeze({ ...bases });
}

function uint64At(bytes: Uint8Array, at: number): bigint {
  let value = 0n;
  for (let i = at; i < at + 8; i++) value = (value << 8n) | BigInt(bytes[i] ?? 0);
  return value;
}
