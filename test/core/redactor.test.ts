import { describe, expect, it } from 'vitest';
import { PerpbotError } from '../../src/core/perpbotError.js';
import { REDACTED, redactJson, redactText, redactValue } from '../../src/core/redactor.js';
import { registerRecentSecret, registerSecret } from '../../src/core/secretRegistry.js';
import { VenueError } from '../../src/venue/venueError.js';

// A key the process holds, and identifiers of exactly the same shape that it does not.
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ORDER_ID = '0x0000000000001a2bcccccccccccccccccccccccccccccccccccccccccccccccc';
const TX_HASH = `0x${'7e'.repeat(32)}`;
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
// A 64-byte permit signature in its wire encoding (base64), as the engine registers it.
const SIGNATURE_HEX = `${'3f'.repeat(32)}${'5a'.repeat(32)}`;
const SIGNATURE = Buffer.from(SIGNATURE_HEX, 'hex').toString('base64');
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIweGYzOWYiLCJleHAiOjE3MDB9.Qm9ndXNTaWduYXR1cmVCeXRlc0hlcmU';
const CONTROL_TOKEN = 'test-control-token-0123456789abcdef';

registerSecret(KEY);
registerSecret(CONTROL_TOKEN);
registerRecentSecret(SIGNATURE);

const KEY_BYTES = Buffer.from(KEY.slice(2), 'hex');

describe('redactText', () => {
  it.each([
    ['0x and lower case', KEY],
    ['no 0x', KEY.slice(2)],
    ['upper case', KEY.slice(2).toUpperCase()],
    ['0X and upper case', `0X${KEY.slice(2).toUpperCase()}`],
    ['base64', KEY_BYTES.toString('base64')],
    ['base64url', KEY_BYTES.toString('base64url')],
    ['inside longer calldata', `0xa9059cbb${KEY.slice(2)}${'00'.repeat(32)}`],
  ])('redacts a held key written with %s', (_, form) => {
    expect(redactText(`venue said: bad key ${form}, try again`)).toBe(`venue said: bad key ${REDACTED}, try again`);
  });

  it('redacts a signature the process made, in its wire base64 and as hex', () => {
    expect(redactText(`permit ${SIGNATURE} refused`)).toBe(`permit ${REDACTED} refused`);
    expect(redactText(`sig=0x${SIGNATURE_HEX};`)).toBe(`sig=${REDACTED};`);
  });

  it('redacts JWTs and bearer credentials on sight, registered or not', () => {
    expect(redactText(`token ${JWT}!`)).toBe(`token ${REDACTED}!`);
    expect(redactText('Authorization: Bearer abc.def-ghi')).toBe(`Authorization: Bearer ${REDACTED}`);
  });

  it('redacts a held token that has no hex or base64 shape wherever it occurs', () => {
    expect(redactText(`GET /api/status?token=${CONTROL_TOKEN}&x=1`)).toBe(`GET /api/status?token=${REDACTED}&x=1`);
  });

  it('keeps order ids, tx hashes and addresses verbatim, even of a key’s length and under any name', () => {
    const line = `{"note":"order ${ORDER_ID} (intent i-1) left the book","tx":"${TX_HASH}","account":"${ADDRESS}","bare":"${ORDER_ID.slice(2)}"}`;
    expect(redactText(line)).toBe(line);
  });

  it('redacts a held key inside a JSON line without breaking the JSON', () => {
    const out = redactText(JSON.stringify({ error: { message: `InvalidArgument: key ${KEY}` }, orderId: ORDER_ID }));
    expect(JSON.parse(out)).toEqual({ error: { message: `InvalidArgument: key ${REDACTED}` }, orderId: ORDER_ID });
  });
});

describe('redactValue', () => {
  it('replaces secret-named fields at any depth and held secrets in any string, keeping the rest', () => {
    const input = {
      account: ADDRESS,
      orderId: ORDER_ID,
      permit: { nonce_anchor: '12', signature: 'opaque, never registered' },
      request: { body: { permit_params: { signature: 'x' } }, headers: { Authorization: 'anything' } },
      note: `oops ${KEY}`,
      tx_hash: TX_HASH,
      list: [{ access_token: 'x' }, JWT, { deep: { deeper: { private_key: 'y', memo: `k=${KEY.slice(2)}` } } }],
    };
    expect(redactValue(input)).toEqual({
      account: ADDRESS,
      orderId: ORDER_ID,
      permit: { nonce_anchor: '12', signature: REDACTED },
      request: { body: { permit_params: { signature: REDACTED } }, headers: { Authorization: REDACTED } },
      note: `oops ${REDACTED}`,
      tx_hash: TX_HASH,
      list: [
        { access_token: REDACTED },
        REDACTED,
        { deep: { deeper: { private_key: REDACTED, memo: `k=${REDACTED}` } } },
      ],
    });
    expect(input.permit.signature).toBe('opaque, never registered');
  });

  it('turns errors into plain objects with redacted message, stack, fields and cause chain', () => {
    const cause = new Error(`login failed for ${JWT}`);
    const error = new PerpbotError(`could not sign with ${KEY} for order ${ORDER_ID}`, {
      code: 'INVALID_VALUE',
      details: { signer_signature: 'z', market: 1 },
      hints: ['check the key'],
      cause,
    });
    const out = redactValue({ err: error });
    const text = JSON.stringify(out);
    expect(text).not.toContain(KEY.slice(2, 20));
    expect(text).not.toContain(JWT.slice(0, 30));
    expect(out).toMatchObject({
      err: {
        type: 'PerpbotError',
        message: `could not sign with ${REDACTED} for order ${ORDER_ID}`,
        code: 'INVALID_VALUE',
        details: { signer_signature: REDACTED, market: 1 },
        hints: ['check the key'],
        cause: { type: 'Error', message: `login failed for ${REDACTED}` },
      },
    });
  });

  it('redacts a held key in a venue error body, its message and everything derived from it', () => {
    const rawBody = JSON.stringify({ error: { code: 'InvalidArgument', message: `InvalidArgument: key ${KEY}` } });
    const error = new VenueError({ httpStatus: 400, rawBody, endpoint: 'POST /v1/orders/place' });
    expect(error.message).toBe(`POST /v1/orders/place failed with HTTP 400: InvalidArgument: key ${REDACTED}`);
    expect(error.reason).toBe(`InvalidArgument: key ${REDACTED}`);
    expect(error.rawBody).not.toContain(KEY.slice(2));
    expect(JSON.stringify(redactValue(error))).not.toContain(KEY.slice(2));
  });

  it('survives cycles, respects toJSON and leaves numbers and bigints alone', () => {
    const node: Record<string, unknown> = { size: 5n, when: new Date(0) };
    node['self'] = node;
    expect(redactValue(node)).toEqual({ size: 5n, when: '1970-01-01T00:00:00.000Z', self: '[circular]' });
  });
});

describe('redactJson', () => {
  it('is JSON.stringify with secret-named members and held secrets redacted, toJSON included', () => {
    const body = { status: { orderId: ORDER_ID, token: 'x', note: `pasted ${KEY}` }, when: new Date(0), empty: '' };
    expect(JSON.parse(redactJson(body))).toEqual({
      status: { orderId: ORDER_ID, token: REDACTED, note: `pasted ${REDACTED}` },
      when: '1970-01-01T00:00:00.000Z',
      empty: '',
    });
  });
});
