import { describe, expect, it } from 'vitest';
import { isSecretFieldName } from '../../src/core/secretFieldNames.js';

describe('secret field names', () => {
  it.each([
    'signature',
    'permitSignature',
    'account_signature',
    'private_key',
    'PRIVATE-KEY',
    'refreshToken',
    'jwt',
    'token',
    'bearer',
    'secrets',
    'control_token',
    'authorization',
    'set-cookie',
    'apiKey',
  ])('%s is secret', (name) => {
    expect(isSecretFieldName(name)).toBe(true);
  });

  it.each(['account', 'signer', 'nonce_anchor', 'tx_hash', 'orderId', 'market_id', 'base_token', 'token_env'])(
    '%s is not secret',
    (name) => {
      expect(isSecretFieldName(name)).toBe(false);
    },
  );
});
