import { secp256k1 } from '@noble/curves/secp256k1';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidValueError } from '../../../src/core/invalidValueError.js';
import { keccak256 } from '../../../src/protocol/keccak.js';
import {
  parseBase64Signature,
  recoverAddress,
  toBase64Compact,
  toBase64Full,
} from '../../../src/protocol/signature.js';
import { decodePermitSignature, recoverSigner } from '../../../src/sim/chain/permitSignature.js';
import { invalidArgument } from '../../../src/sim/simRefusal.js';

/**
 * The simulator's permit-signature fast path must answer exactly as the protocol path it replaced
 * (parseBase64Signature, then recoverAddress): the same r ‖ s and parity for every signature it
 * takes, the same refusal text for every one it does not, and the same recovered address.
 */
const N = secp256k1.CURVE.n;
const word = (value: bigint) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');

/** Scalars around the edges of 1 .. n-1 as well as random ones. */
const scalar = fc.oneof(
  fc.constantFrom(0n, 1n, N - 1n, N, N + 1n, (1n << 255n) - 1n, 1n << 255n, (1n << 256n) - 1n),
  fc.bigInt({ min: 1n, max: N - 1n }),
);

const signatureText = fc.oneof(
  fc
    .tuple(scalar, scalar, fc.constantFrom(0, 1, 27, 28, 2, 26, 29, 255))
    .map(([r, s, v]) => Buffer.concat([word(r), word(s), Buffer.from([v])]).toString('base64')),
  fc.tuple(scalar, scalar).map(([r, ys]) => Buffer.concat([word(r), word(ys)]).toString('base64')),
  fc.uint8Array({ minLength: 60, maxLength: 68 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  fc.constantFrom(
    '',
    'not base64!',
    'AAAA',
    'A'.repeat(86),
    `${'A'.repeat(86)}=`,
    ` ${Buffer.alloc(64, 1).toString('base64')}`,
  ),
  // 88 characters, as every 64- and 65-byte signature is: unused low bits of the last character
  // set, a stray '=' or a character outside the alphabet somewhere.
  fc
    .tuple(
      fc.tuple(scalar, scalar, fc.constantFrom(27, 28, 0, 1)),
      fc.boolean(),
      fc.nat(87),
      fc.constantFrom('=', '-', '_', 'é', ' ', 'A', '/', '+', '\u0000'),
      fc.nat(3),
    )
    .map(([[r, s, v], full, at, char, lowBits]) => {
      const text = (full ? Buffer.concat([word(r), word(s), Buffer.from([v])]) : Buffer.concat([word(r), word(s)]))
        .toString('base64')
        .split('');
      const last = full ? 86 : 85;
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      const lastValue = alphabet.indexOf(text[last] ?? 'A');
      text[last] = alphabet[lastValue | (full ? lowBits & 3 : lowBits)] ?? 'A';
      if (lowBits === 0) text[at] = char;
      return text.join('');
    }),
);

type Decoded = { ok: true; rs: string; yParity: number } | { ok: false; text: string };

function viaProtocol(text: string): Decoded {
  try {
    const sig = parseBase64Signature(text, 'permit.signature');
    return { ok: true, rs: Buffer.concat([word(sig.r), word(sig.s)]).toString('hex'), yParity: sig.yParity };
  } catch (error) {
    if (error instanceof InvalidValueError) return { ok: false, text: invalidArgument(error.message).text };
    throw error;
  }
}

function viaFastPath(text: string): Decoded {
  try {
    const sig = decodePermitSignature(text);
    return { ok: true, rs: Buffer.from(sig.rs).toString('hex'), yParity: sig.yParity };
  } catch (error) {
    return { ok: false, text: (error as { text: string }).text };
  }
}

describe('permit signature fast path', () => {
  it('decodes every signature as parseBase64Signature does, and refuses the rest with its text', () => {
    let taken = 0;
    fc.assert(
      fc.property(signatureText, (text) => {
        const fast = viaFastPath(text);
        expect(fast).toStrictEqual(viaProtocol(text));
        if (fast.ok) taken += 1;
      }),
      { numRuns: 3_000 },
    );
    expect(taken).toBeGreaterThan(300);
  });

  it('recovers the same address as recoverAddress, returning the expected signer itself when it matches', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.bigInt({ min: 1n, max: N - 1n }),
        fc.boolean(),
        (message, key, compact) => {
          const digest = keccak256(message);
          const signed = secp256k1.sign(digest, key);
          const sig = { r: signed.r, s: signed.s, yParity: signed.recovery as 0 | 1 };
          const text = compact ? toBase64Compact(sig) : toBase64Full(sig);
          const expected = recoverAddress(digest, sig);
          const recovered = recoverSigner(digest, decodePermitSignature(text), expected);
          expect(recovered).toBe(expected);
          // Another expected signer: the recovered address itself, checksummed, as the revert text names it.
          expect(recoverSigner(digest, decodePermitSignature(text), '0x0000000000000000000000000000000000000001')).toBe(
            expected,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('tells a key it has matched before from another, whichever signer is expected, time after time', () => {
    const keys = [3n, 5n, N - 2n];
    const signers = keys.map((key) => {
      const digest = keccak256(Uint8Array.from([Number(key % 256n)]));
      const signed = secp256k1.sign(digest, key);
      return recoverAddress(digest, { r: signed.r, s: signed.s, yParity: signed.recovery as 0 | 1 });
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(2), fc.nat(2), fc.uint8Array({ minLength: 1, maxLength: 8 })), { minLength: 10 }),
        (steps) => {
          for (const [signs, expects, message] of steps) {
            const digest = keccak256(message);
            const signed = secp256k1.sign(digest, keys[signs]!);
            const text = toBase64Compact({ r: signed.r, s: signed.s, yParity: signed.recovery as 0 | 1 });
            // The signer's own address whenever it signed; the one expected is returned only then.
            expect(recoverSigner(digest, decodePermitSignature(text), signers[expects]!)).toBe(signers[signs]);
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
