import { secp256k1 } from '@noble/curves/secp256k1';
import type { Address, Hex } from 'viem';
import { InvalidValueError } from '../core/invalidValueError.js';
import { addressOfPublicKey } from './signature.js';

// A private key's address and fresh private keys, with @noble/curves, the primitive viem's
// `privateKeyToAddress` and `generatePrivateKey` use (tested equal): importing viem/accounts
// loads a hundred modules, BIP-39 word lists among them, on every CLI start.

/** The checksummed address of a 0x secp256k1 private key (keccak-256 of the public key's x and y). */
export function addressOfPrivateKey(privateKey: Hex): Address {
  // Checked here so that the curve library's own message, which quotes the number, never carries a key.
  if (!/^0x[0-9a-fA-F]{64}$/.test(privateKey) || !secp256k1.utils.isValidPrivateKey(privateKey.slice(2)))
    throw new InvalidValueError('private key', '(hidden)', 'a 32-byte secp256k1 private key in 1 .. n-1');
  return addressOfPublicKey(secp256k1.getPublicKey(privateKey.slice(2), false));
}

/** A new private key from the platform's secure random source, in 1 .. n-1. */
export function newPrivateKey(): Hex {
  return `0x${Buffer.from(secp256k1.utils.randomPrivateKey()).toString('hex')}`;
}
