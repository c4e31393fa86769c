import { keccak256 } from './keccak.js';
import { utf8ToBytes } from '@noble/hashes/utils';

/**
 * The EIP-712 structs the venue verifies, field order exactly as the spec writes them. The type
 * string is derived from this table and a test holds it equal, character for character, to the
 * spec's literal strings (the string is hashed, so a stray space breaks every signature).
 */
export const TYPED_STRUCTS = {
  RegisterSigner: [
    { name: 'account', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'message', type: 'string' },
    { name: 'expiration', type: 'uint32' },
    { name: 'nonceAnchor', type: 'uint48' },
    { name: 'nonceBitmap', type: 'uint8' },
  ],
  VerifySigner: [
    { name: 'account', type: 'address' },
    { name: 'nonceAnchor', type: 'uint48' },
    { name: 'nonceBitmap', type: 'uint8' },
  ],
  RevokeSigner: [
    { name: 'account', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'nonceAnchor', type: 'uint48' },
    { name: 'nonceBitmap', type: 'uint8' },
  ],
  VerifyWitness: [
    { name: 'account', type: 'address' },
    { name: 'target', type: 'address' },
    { name: 'hash', type: 'bytes32' },
    { name: 'nonceAnchor', type: 'uint48' },
    { name: 'nonceBitmap', type: 'uint8' },
    { name: 'deadline', type: 'uint32' },
  ],
  Login: [
    { name: 'account', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint32' },
  ],
  RegisterV2: [
    { name: 'signer', type: 'address' },
    { name: 'message', type: 'string' },
    { name: 'nonce', type: 'uint256' },
  ],
  PermitSingle: [
    { name: 'account', type: 'address' },
    { name: 'operator', type: 'address' },
    { name: 'budget', type: 'uint96' },
    { name: 'allowanceExpiry', type: 'uint32' },
    { name: 'nonceAnchor', type: 'uint48' },
    { name: 'nonceBitmap', type: 'uint8' },
  ],
  // TP/SL orders (venue-tpsl.md "Typed data"): signed by the session signer, no anchor+bitmap nonce.
  PlaceTpslOrder: [
    { name: 'account', type: 'address' },
    { name: 'marketId', type: 'uint64' },
    { name: 'side', type: 'uint8' },
    { name: 'size', type: 'string' },
    { name: 'stopType', type: 'uint8' },
    { name: 'stopPrice', type: 'string' },
    { name: 'limitPrice', type: 'string' },
    { name: 'orderType', type: 'uint8' },
    { name: 'stopPriceOption', type: 'uint8' },
    { name: 'tif', type: 'uint8' },
    { name: 'deadline', type: 'uint32' },
  ],
  /**
   * PlaceTpslOrder as two other public clients sign it: the same fields, then `uint32
   * sizePercentBps` (a share of the position, in basis points). Its primary type is still
   * "PlaceTpslOrder" (`primaryTypeOf`); see docs/spec-gaps/real-wire.md "TP/SL orders: the disputed readings".
   */
  PlaceTpslOrderSized: [
    { name: 'account', type: 'address' },
    { name: 'marketId', type: 'uint64' },
    { name: 'side', type: 'uint8' },
    { name: 'size', type: 'string' },
    { name: 'stopType', type: 'uint8' },
    { name: 'stopPrice', type: 'string' },
    { name: 'limitPrice', type: 'string' },
    { name: 'orderType', type: 'uint8' },
    { name: 'stopPriceOption', type: 'uint8' },
    { name: 'tif', type: 'uint8' },
    { name: 'deadline', type: 'uint32' },
    { name: 'sizePercentBps', type: 'uint32' },
  ],
  CancelTpslOrder: [
    { name: 'account', type: 'address' },
    { name: 'orderId', type: 'string' },
    { name: 'deadline', type: 'uint32' },
  ],
  CancelAllTpslOrders: [
    { name: 'account', type: 'address' },
    { name: 'marketId', type: 'uint64' },
    { name: 'deadline', type: 'uint32' },
  ],
} as const;

export type StructName = keyof typeof TYPED_STRUCTS;

type Address = `0x${string}`;

export interface RegisterSignerMessage {
  readonly account: Address;
  readonly signer: Address;
  readonly message: string;
  readonly expiration: number | bigint;
  readonly nonceAnchor: bigint | number;
  readonly nonceBitmap: number;
}
export interface VerifySignerMessage {
  readonly account: Address;
  readonly nonceAnchor: bigint | number;
  readonly nonceBitmap: number;
}
export interface RevokeSignerMessage {
  readonly account: Address;
  readonly signer: Address;
  readonly nonceAnchor: bigint | number;
  readonly nonceBitmap: number;
}
export interface VerifyWitnessMessage {
  readonly account: Address;
  readonly target: Address;
  readonly hash: `0x${string}` | Uint8Array;
  readonly nonceAnchor: bigint | number;
  readonly nonceBitmap: number;
  readonly deadline: number | bigint;
}
export interface LoginMessage {
  readonly account: Address;
  readonly nonce: bigint;
  readonly deadline: number | bigint;
}
export interface RegisterV2Message {
  readonly signer: Address;
  readonly message: string;
  readonly nonce: bigint;
}
export interface PermitSingleMessage {
  readonly account: Address;
  readonly operator: Address;
  readonly budget: bigint;
  readonly allowanceExpiry: number | bigint;
  readonly nonceAnchor: bigint | number;
  readonly nonceBitmap: number;
}

/** venue-tpsl.md: side, stopType, orderType, stopPriceOption and tif are the numbers of `enums.ts`. */
export interface PlaceTpslOrderMessage {
  readonly account: Address;
  readonly marketId: bigint | number;
  readonly side: number;
  /** Decimal strings, signed as the very text sent. */
  readonly size: string;
  readonly stopType: number;
  readonly stopPrice: string;
  /** "0" for a market execution. */
  readonly limitPrice: string;
  readonly orderType: number;
  readonly stopPriceOption: number;
  readonly tif: number;
  /** uint32 unix seconds: the only replay protection (no anchor+bitmap nonce). */
  readonly deadline: number | bigint;
}
export interface PlaceTpslOrderSizedMessage extends PlaceTpslOrderMessage {
  /** 0 to 10000. */
  readonly sizePercentBps: number;
}
export interface CancelTpslOrderMessage {
  readonly account: Address;
  /** As the place answer gave it. */
  readonly orderId: string;
  readonly deadline: number | bigint;
}
export interface CancelAllTpslOrdersMessage {
  readonly account: Address;
  readonly marketId: bigint | number;
  readonly deadline: number | bigint;
}

export interface StructMessages {
  RegisterSigner: RegisterSignerMessage;
  VerifySigner: VerifySignerMessage;
  RevokeSigner: RevokeSignerMessage;
  VerifyWitness: VerifyWitnessMessage;
  Login: LoginMessage;
  RegisterV2: RegisterV2Message;
  PermitSingle: PermitSingleMessage;
  PlaceTpslOrder: PlaceTpslOrderMessage;
  PlaceTpslOrderSized: PlaceTpslOrderSizedMessage;
  CancelTpslOrder: CancelTpslOrderMessage;
  CancelAllTpslOrders: CancelAllTpslOrdersMessage;
}

/** The EIP-712 primary type of a struct: its key, except for a variant of another struct. */
const PRIMARY_TYPES: Partial<Record<StructName, string>> = { PlaceTpslOrderSized: 'PlaceTpslOrder' };

export function primaryTypeOf(name: StructName): string {
  return PRIMARY_TYPES[name] ?? name;
}

/** "Name(type1 name1,type2 name2)" with no spaces but the one between type and name. */
export function typeString(name: StructName): string {
  return `${primaryTypeOf(name)}(${TYPED_STRUCTS[name].map((f) => `${f.type} ${f.name}`).join(',')})`;
}

const typeHashes = Object.fromEntries(
  (Object.keys(TYPED_STRUCTS) as StructName[]).map((name) => [name, keccak256(utf8ToBytes(typeString(name)))]),
) as Record<StructName, Uint8Array>;

/** keccak-256 of the type string, computed once at load. */
export function typeHash(name: StructName): Uint8Array {
  return typeHashes[name];
}

/**
 * Extra bounds beyond the declared widths: the bitmap index is a uint8 but 208 and above revert
 * on the venue (spec "Nonces"), and the TP/SL enumerations are uint8 with two or four members
 * (venue-tpsl.md), so nothing that would revert is ever signed.
 */
export const FIELD_LIMITS: Readonly<Record<string, { min: bigint; max: bigint }>> = {
  nonceBitmap: { min: 0n, max: 207n },
  side: { min: 0n, max: 1n },
  stopType: { min: 0n, max: 1n },
  orderType: { min: 0n, max: 1n },
  stopPriceOption: { min: 0n, max: 1n },
  tif: { min: 0n, max: 3n },
  sizePercentBps: { min: 0n, max: 10_000n },
};
