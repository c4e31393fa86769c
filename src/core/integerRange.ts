import { InvalidValueError } from './invalidValueError.js';

/** Inclusive bounds of an unsigned integer of `bits` bits. */
export function uintMax(bits: number): bigint {
  if (Number.isInteger(bits) && bits >= 0 && bits <= 256) return (UINT_MAX[bits] ??= (1n << BigInt(bits)) - 1n);
  return (1n << BigInt(bits)) - 1n;
}

/** uintMax per width, computed once: every range check of every signed field asks for one. */
const UINT_MAX: bigint[] = [];

/** Converts a number or bigint to bigint, refusing fractions, NaN and unsafe floats. */
export function toBigInt(value: bigint | number | string, field: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new InvalidValueError(field, value, 'a safe integer');
    return BigInt(value);
  }
  if (!/^-?\d+$/.test(value)) throw new InvalidValueError(field, value, 'a base-10 integer string');
  return BigInt(value);
}

/** Checks `min <= value <= max` and returns the value as bigint. */
export function checkRange(value: bigint | number | string, min: bigint, max: bigint, field: string): bigint {
  const v = toBigInt(value, field);
  if (v < min || v > max) throw new InvalidValueError(field, v, `${min} to ${max}`);
  return v;
}

/** Range-checks an unsigned integer of the given width (uint8 ... uint256). */
export function checkUint(value: bigint | number | string, bits: number, field: string): bigint {
  const v = toBigInt(value, field);
  if (v < 0n || v > uintMax(bits)) throw new InvalidValueError(field, v, `uint${bits}: 0 to ${uintMax(bits)}`);
  return v;
}

/** Range-checks a signed two's-complement integer of the given width (int8 ... int256). */
export function checkInt(value: bigint | number | string, bits: number, field: string): bigint {
  const v = toBigInt(value, field);
  const max = (1n << BigInt(bits - 1)) - 1n;
  const min = -(1n << BigInt(bits - 1));
  if (v < min || v > max) throw new InvalidValueError(field, v, `int${bits}: ${min} to ${max}`);
  return v;
}
