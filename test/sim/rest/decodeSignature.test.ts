import { describe, expect, it } from 'vitest';
import { toBase64Compact, toBase64Full, toHex65, type Signature } from '../../../src/protocol/signature.js';
import { decodeSignature } from '../../../src/sim/rest/setupSignature.js';

// r's first byte 0xd3 and its second's high nibble 1: the base64 of the signature starts with "0x"
// ('0' is 52, 'x' is 49: 110100 110001). One signature in 4,096 does, by chance.
const startsWith0x: Signature = {
  r: 0xd31234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdn,
  s: 0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcn,
  yParity: 1,
};

describe('decodeSignature', () => {
  it('reads a base64 signature that happens to start with "0x" as base64, full and compact', () => {
    for (const text of [toBase64Full(startsWith0x), toBase64Compact(startsWith0x)]) {
      expect(text.startsWith('0x')).toBe(true);
      expect(decodeSignature(text, 'signature', 'hex-or-base64')).toEqual(startsWith0x);
    }
  });

  it('reads 0x hex of 65 bytes, and refuses base64 where only hex is allowed', () => {
    expect(decodeSignature(toHex65(startsWith0x), 'signature', 'hex-or-base64')).toEqual(startsWith0x);
    expect(decodeSignature(toHex65(startsWith0x), 'signature', 'hex')).toEqual(startsWith0x);
    expect(() => decodeSignature(toBase64Full(startsWith0x), 'signature', 'hex')).toThrow(/0x-prefixed hex/);
  });

  it('refuses text that is neither, naming the field', () => {
    expect(() => decodeSignature('0x1234', 'signature', 'hex-or-base64')).toThrow(/signature: invalid value/);
  });
});
