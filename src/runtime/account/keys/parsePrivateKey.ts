import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { Hex } from 'viem';
import { KeyError } from './keyError.js';

const CURVE_ORDER = secp256k1.CURVE.n;

/**
 * Checks that `text` is a usable secp256k1 private key: 0x + 64 hex digits, non-zero and below
 * the curve order. Surrounding whitespace (a trailing newline in a file) is ignored. Errors
 * describe the shape (length, prefix) and never the content.
 */
export function parsePrivateKey(text: string, origin: string): Hex {
  const trimmed = text.trim();
  const fix = `${origin} must hold one private key: 0x followed by 64 hex digits`;
  if (!trimmed.startsWith('0x')) {
    const hint = /^[0-9a-fA-F]{64}$/.test(trimmed) ? 'add the 0x prefix' : fix;
    throw new KeyError(origin, `${origin} is not a private key: no 0x prefix (${trimmed.length} characters)`, [hint]);
  }
  const body = trimmed.slice(2);
  if (!/^[0-9a-fA-F]*$/.test(body)) {
    throw new KeyError(origin, `${origin} is not a private key: contains characters that are not hex digits`, [fix]);
  }
  if (body.length !== 64) {
    throw new KeyError(origin, `${origin} is not a private key: ${body.length} hex digits after 0x, expected 64`, [
      fix,
    ]);
  }
  const value = BigInt(trimmed);
  if (value === 0n || value >= CURVE_ORDER) {
    throw new KeyError(origin, `${origin} is not a private key: zero or not below the secp256k1 curve order`, [
      fix,
      'generate a new key instead of editing one by hand',
    ]);
  }
  return `0x${body.toLowerCase()}`;
}
