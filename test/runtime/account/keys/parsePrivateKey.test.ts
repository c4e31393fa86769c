import { describe, expect, it } from 'vitest';
import { KeyError } from '../../../../src/runtime/account/keys/keyError.js';
import { parsePrivateKey } from '../../../../src/runtime/account/keys/parsePrivateKey.js';

const BODY = 'AC0974BEC39A17E36BA4A6B4D238FF944BACB478CBED5EFCAE784D7BF4F2FF80';
const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const hex64 = (n: bigint): string => `0x${n.toString(16).padStart(64, '0')}`;

function refusal(text: string): KeyError {
  try {
    parsePrivateKey(text, 'PERPBOT_ACCOUNT_KEY');
  } catch (error) {
    if (error instanceof KeyError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parsePrivateKey', () => {
  it('accepts 0x + 64 hex, ignoring surrounding whitespace, and returns it lowercased', () => {
    expect(parsePrivateKey(`  0x${BODY}\n`, 'k')).toBe(`0x${BODY.toLowerCase()}`);
    expect(parsePrivateKey(hex64(1n), 'k')).toBe(hex64(1n));
    expect(parsePrivateKey(hex64(ORDER - 1n), 'k')).toBe(hex64(ORDER - 1n));
  });

  it.each([
    [BODY, 'no 0x prefix (64 characters)', 'add the 0x prefix'],
    [`0x${BODY.slice(0, 62)}`, '62 hex digits after 0x, expected 64', '0x followed by 64 hex digits'],
    [`0x${BODY}00`, '66 hex digits after 0x, expected 64', '0x followed by 64 hex digits'],
    [`0x${BODY.slice(0, 63)}g`, 'contains characters that are not hex digits', '0x followed by 64 hex digits'],
    [hex64(0n), 'zero or not below the secp256k1 curve order', 'generate a new key'],
    [hex64(ORDER), 'zero or not below the secp256k1 curve order', 'generate a new key'],
    [`0x${'f'.repeat(64)}`, 'zero or not below the secp256k1 curve order', 'generate a new key'],
  ])('refuses %s: %s, without echoing it', (text, problem, hint) => {
    const error = refusal(text);
    expect(error.message).toBe(`PERPBOT_ACCOUNT_KEY is not a private key: ${problem}`);
    expect(error.hints.join(' ')).toContain(hint);
    expect(error.origin).toBe('PERPBOT_ACCOUNT_KEY');
    const everything = `${error.message} ${JSON.stringify(error.toJSON())}`.toLowerCase();
    expect(everything).not.toContain(BODY.slice(8, 24).toLowerCase());
  });
});
