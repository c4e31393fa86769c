import { keccak256 } from './keccak.js';
import { utf8ToBytes } from '@noble/hashes/utils';
import { checkRange } from '../core/integerRange.js';
import { InvalidValueError } from '../core/invalidValueError.js';
import { WORD, writeAddressWord, writeBytes32Word, writeCheckedUint, writeUintWord } from './abiWords.js';
import { FIELD_LIMITS, TYPED_STRUCTS, typeHash, type StructMessages, type StructName } from './typedStructs.js';

/**
 * hashStruct for the venue's structs: the typehash word followed by one word per field, hashed
 * once. Only the field types the venue uses are supported (address, uintN, bytes32, string).
 * Every integer is range-checked against its declared width (and the bitmap's 0..207) before it
 * is written, so nothing out of range is ever signed.
 */
export function structHash<N extends StructName>(name: N, message: StructMessages[N]): Uint8Array {
  const plan = PLANS[name];
  const buf = new Uint8Array((plan.length + 1) * WORD);
  buf.set(typeHash(name), 0);
  const values = message as unknown as Record<string, unknown>;
  let offset = WORD;
  for (const field of plan) {
    const value = values[field.name];
    const label = field.label;
    if (field.kind === 'address') {
      writeAddressWord(buf, offset, value as string, label);
    } else if (field.kind === 'string') {
      if (typeof value !== 'string') throw new InvalidValueError(label, value, 'a string');
      buf.set(keccak256(utf8ToBytes(value)), offset);
    } else if (field.kind === 'bytes32') {
      writeBytes32Word(buf, offset, value as string, label);
    } else if (field.limit !== undefined) {
      writeUintWord(buf, offset, checkRange(value as bigint | number, field.limit.min, field.limit.max, label));
    } else {
      writeCheckedUint(buf, offset, value as bigint | number, field.bits, label);
    }
    offset += WORD;
  }
  return keccak256(buf);
}

/** One field as structHash writes it; derived once per struct rather than on every hash. */
interface FieldPlan {
  readonly name: string;
  readonly label: string;
  readonly kind: 'address' | 'string' | 'bytes32' | 'uint';
  /** Width of a uintN field. */
  readonly bits: number;
  readonly limit: { readonly min: bigint; readonly max: bigint } | undefined;
}

const PLANS = Object.fromEntries(
  (Object.keys(TYPED_STRUCTS) as StructName[]).map((name) => [
    name,
    TYPED_STRUCTS[name].map((field): FieldPlan => {
      const uint = field.type.startsWith('uint');
      return {
        name: field.name,
        label: `${name}.${field.name}`,
        kind: uint ? 'uint' : (field.type as 'address' | 'string' | 'bytes32'),
        bits: uint ? Number(field.type.slice(4)) : 0,
        limit: FIELD_LIMITS[field.name],
      };
    }),
  ]),
) as unknown as Record<StructName, readonly FieldPlan[]>;

/**
 * `0x19 0x01 ‖ separator ‖ struct hash`, one buffer for every digest, both words rewritten each
 * call: the keccak copies its input, and a fresh 66-byte array per permit was an off-heap
 * allocation on the order path.
 */
const digestInput = new Uint8Array(2 + 2 * WORD);
digestInput[0] = 0x19;
digestInput[1] = 0x01;

/** The EIP-712 digest: keccak(0x1901 ‖ domainSeparator ‖ structHash). */
export function eip712Digest(separator: Uint8Array, hashOfStruct: Uint8Array): Uint8Array {
  const buf = digestInput;
  // Both are keccak digests; anything shorter is zero-padded, as into a fresh array.
  if (separator.length !== WORD || hashOfStruct.length !== WORD) buf.fill(0, 2);
  buf.set(separator, 2);
  buf.set(hashOfStruct, 2 + WORD);
  return keccak256(buf);
}
