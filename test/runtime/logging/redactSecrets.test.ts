import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { PerpbotError } from '../../../src/core/perpbotError.js';
import { REDACTED, redactSecrets, redactSecretsInText } from '../../../src/runtime/logging/redactSecrets.js';
import { isSecretLogKey, secretRedactionPaths } from '../../../src/runtime/logging/secretLogKeys.js';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const HEX_SIGNATURE = `0x${'3f'.repeat(32)}${'5a'.repeat(32)}1b`;
const BASE64_SIGNATURE = Buffer.from(HEX_SIGNATURE.slice(2), 'hex').toString('base64');
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIweGYzOWYiLCJleHAiOjE3MDB9.Qm9ndXNTaWduYXR1cmVCeXRlc0hlcmU';
const TX_HASH = `0x${'7e'.repeat(32)}`;

describe('redactSecretsInText', () => {
  it.each([
    ['a private key', `key=${KEY} end`, 'key=[redacted] end'],
    ['a bare 64-hex key', `k ${KEY.slice(2)}.`, 'k [redacted].'],
    ['a 65-byte hex signature', `sig ${HEX_SIGNATURE}`, 'sig [redacted]'],
    ['a base64 signature', `sig ${BASE64_SIGNATURE} ok`, 'sig [redacted] ok'],
    ['a JWT', `token ${JWT}!`, 'token [redacted]!'],
    ['a bearer header', 'Authorization: Bearer abc.def-ghi', 'Authorization: Bearer [redacted]'],
  ])('scrubs %s', (_, text, expected) => {
    expect(redactSecretsInText(text)).toBe(expected);
  });

  it('keeps addresses, short hex, decimals and hashes under hash keys', () => {
    const line = `{"account":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","anchor":"0x1f","price":"65000.5","tx_hash":"${TX_HASH}","digest":"${TX_HASH}"}`;
    expect(redactSecretsInText(line)).toBe(line);
  });

  it('scrubs a key even when it sits under a hash-named field if it is longer than a hash', () => {
    expect(redactSecretsInText(`{"tx_hash":"${HEX_SIGNATURE}"}`)).toBe(`{"tx_hash":"${REDACTED}"}`);
  });
});

describe('redactSecrets', () => {
  it('replaces secret-named fields at any depth and scrubs secret-shaped strings', () => {
    const input = {
      account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      permit: { nonce_anchor: '12', signature: BASE64_SIGNATURE },
      request: { body: { permit_params: { signature: 'opaque' } }, headers: { Authorization: 'anything' } },
      note: `oops ${KEY}`,
      tx_hash: TX_HASH,
      list: [{ access_token: 'x' }, JWT],
    };
    expect(redactSecrets(input)).toEqual({
      account: input.account,
      permit: { nonce_anchor: '12', signature: REDACTED },
      request: { body: { permit_params: { signature: REDACTED } }, headers: { Authorization: REDACTED } },
      note: `oops ${REDACTED}`,
      tx_hash: TX_HASH,
      list: [{ access_token: REDACTED }, REDACTED],
    });
    expect(input.permit.signature).toBe(BASE64_SIGNATURE);
  });

  it('turns errors into plain objects with scrubbed message, stack, fields and cause', () => {
    const cause = new Error(`login failed for ${JWT}`);
    const error = new PerpbotError(`could not sign with ${KEY}`, {
      code: 'SIGN_FAILED',
      details: { signer_signature: HEX_SIGNATURE, market: 1 },
      hints: ['check the key'],
      cause,
    });
    const out = redactSecrets({ err: error });
    const text = JSON.stringify(out);
    expect(text).not.toContain(KEY.slice(2, 20));
    expect(text).not.toContain(JWT.slice(0, 30));
    expect(text).not.toContain('3f3f3f3f');
    expect(out).toMatchObject({
      err: {
        type: 'PerpbotError',
        message: `could not sign with ${REDACTED}`,
        code: 'SIGN_FAILED',
        details: { signer_signature: REDACTED, market: 1 },
        hints: ['check the key'],
        cause: { type: 'Error', message: `login failed for ${REDACTED}` },
      },
    });
  });

  it('survives cycles, respects toJSON and leaves numbers and bigints alone', () => {
    const node: Record<string, unknown> = { size: 5n, when: new Date(0) };
    node['self'] = node;
    expect(redactSecrets(node)).toEqual({ size: 5n, when: '1970-01-01T00:00:00.000Z', self: '[circular]' });
  });
});

describe('secret log keys', () => {
  it.each([
    'signature',
    'permitSignature',
    'account_signature',
    'private_key',
    'PRIVATE-KEY',
    'refreshToken',
    'authorization',
    'set-cookie',
    'apiKey',
  ])('%s is secret', (name) => {
    expect(isSecretLogKey(name)).toBe(true);
  });

  it.each(['account', 'signer', 'nonce_anchor', 'tx_hash', 'market_id', 'base_token'])('%s is not secret', (name) => {
    expect(isSecretLogKey(name)).toBe(false);
  });

  it('redaction paths cover the wire shapes at the depths we log', () => {
    const paths = secretRedactionPaths();
    for (const path of [
      'signature',
      '*.signature',
      'permit.signature',
      'permit_params.signature',
      'account_signature',
      'signer_signature',
      'access_token',
      'refresh_token',
      'token',
      'headers.authorization',
      '*.permit.signature',
      '*.private_key',
    ]) {
      expect(paths).toContain(path);
    }
  });

  it('redaction paths alone censor secret fields in pino output (valid paths, effective without the formatter)', () => {
    const lines: string[] = [];
    const logger = pino(
      { redact: { paths: secretRedactionPaths(), censor: REDACTED } },
      { write: (line: string) => void lines.push(line) },
    );
    logger.info({
      signature: 'a',
      permit: { signature: 'b', nonce_anchor: '1' },
      request: { permit_params: { signature: 'c' }, headers: { authorization: 'd' } },
      login: { access_token: 'e', refresh_token: 'f' },
      account_signature: 'g',
    });
    const entry = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(entry).toMatchObject({
      signature: REDACTED,
      permit: { signature: REDACTED, nonce_anchor: '1' },
      request: { permit_params: { signature: REDACTED }, headers: { authorization: REDACTED } },
      login: { access_token: REDACTED, refresh_token: REDACTED },
      account_signature: REDACTED,
    });
  });
});

describe('venue order ids stay readable', () => {
  it('keeps a 32-byte order id under an order-id key, and still scrubs the same shape elsewhere', async () => {
    const { redactSecrets, redactSecretsInText, REDACTED } =
      await import('../../../src/runtime/logging/redactSecrets.js');
    const orderId = `0x${'0000000000001a2b'}${'c'.repeat(48)}`;
    expect(redactSecrets({ fill: { orderId, order_id: orderId } })).toEqual({ fill: { orderId, order_id: orderId } });
    expect(redactSecretsInText(`{"order_id":"${orderId}"}`)).toContain(orderId);
    expect(redactSecrets({ privateKey: orderId })).toEqual({ privateKey: REDACTED });
    expect(redactSecrets({ note: orderId })).toEqual({ note: REDACTED });
  });
});
