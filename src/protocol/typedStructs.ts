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
  readonly hash: `0x${string}`;
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

export interface StructMessages {
  RegisterSigner: RegisterSignerMessage;
  VerifySigner: VerifySignerMessage;
  RevokeSigner: RevokeSignerMessage;
  VerifyWitness: VerifyWitnessMessage;
  Login: LoginMessage;
  RegisterV2: RegisterV2Message;
  PermitSingle: PermitSingleMessage;
}

/** "Name(type1 name1,type2 name2)" with no spaces but the one between type and name. */
export function typeString(name: StructName): string {
  return `${name}(${TYPED_STRUCTS[name].map((f) => `${f.type} ${f.name}`).join(',')})`;
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
 * on the venue (spec "Nonces"), so nothing that would revert is ever signed.
 */
export const FIELD_LIMITS: Readonly<Record<string, { min: bigint; max: bigint }>> = {
  nonceBitmap: { min: 0n, max: 207n },
};
