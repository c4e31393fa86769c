import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/runtime/config/configError.js';
import { isSecretFieldName, refuseSecrets, secretShape } from '../../../src/runtime/config/refuseSecrets.js';

const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIweGFiYyJ9.c2lnbmF0dXJlLWJ5dGVz';
const MNEMONIC = 'test test test test test test test test test test test junk';

function refusal(tree: unknown): ConfigError {
  try {
    refuseSecrets(tree);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('refuseSecrets', () => {
  it.each([
    ['private_key', true],
    ['privateKey', true],
    ['account_key', true],
    ['signerKey', true],
    ['api_key', true],
    ['key', true],
    ['secret', true],
    ['client_secret', true],
    ['mnemonic', true],
    ['access_token', true],
    ['password', true],
    ['account_key_file', false],
    ['signer_key_file', false],
    ['keys', false],
    ['base_token', false],
    ['spread_bps', false],
    ['seed', false],
  ])('field name %s is secret-like: %s', (name, expected) => {
    expect(isSecretFieldName(name)).toBe(expected);
  });

  it.each([
    [KEY, 'private key'],
    [KEY.slice(2), 'private key'],
    [`https://host/?k=${KEY}`, 'private key'],
    [`${KEY}${KEY.slice(2)}1b`, 'signature'],
    [JWT, 'JWT'],
    [MNEMONIC, 'mnemonic'],
  ])('value %s is shaped like a %s', (value, kind) => {
    expect(secretShape(value)).toContain(kind);
  });

  it.each(['0x1234', 'market-maker', 'https://venue.example/v1', `0x${'ab'.repeat(20)}`, 'buy low sell high'])(
    'value %s is not secret-shaped',
    (value) => {
      expect(secretShape(value)).toBeUndefined();
    },
  );

  it('refuses a key-named field without echoing its value', () => {
    const error = refusal({ keys: { account_key: KEY } });
    expect(error.path).toBe('keys.account_key');
    expect(error.message).toContain('config error at keys.account_key:');
    expect(error.message).toContain('value not shown');
    expect(JSON.stringify(error.toJSON())).not.toContain(KEY.slice(2, 20));
    expect(error.message).not.toContain(KEY.slice(2, 20));
    expect(error.hints.join(' ')).toContain('PERPBOT_ACCOUNT_KEY');
  });

  it('refuses a key-shaped value under an innocent name, deep in strategy params', () => {
    const error = refusal({ strategies: [{ params: { note: KEY } }] });
    expect(error.path).toBe('strategies[0].params.note');
    expect(error.message).not.toContain(KEY.slice(2, 20));
  });

  it('refuses JWTs and mnemonics without echoing them', () => {
    const jwt = refusal({ auth: { header: `Bearer ${JWT}` } });
    expect(jwt.path).toBe('auth.header');
    expect(jwt.message).not.toContain('eyJhbGci');
    const words = refusal({ wallet: { phrase: MNEMONIC } });
    expect(words.path).toBe('wallet.phrase');
    expect(words.message).not.toContain('test test');
  });

  it('accepts a config with key file paths and no secrets', () => {
    expect(() => refuseSecrets({ keys: { account_key_file: 'keys/account.key' }, sim: { seed: 7 } })).not.toThrow();
  });
});
