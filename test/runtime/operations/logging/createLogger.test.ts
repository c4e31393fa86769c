import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PerpbotError } from '../../../../src/core/perpbotError.js';
import { registerRecentSecret, registerSecret } from '../../../../src/core/secretRegistry.js';
import { loadConfig } from '../../../../src/runtime/config/loadConfig.js';
import { createLogger, createSilentLogger } from '../../../../src/runtime/operations/logging/createLogger.js';

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const HEX_SIGNATURE = `0x${'a1'.repeat(32)}${'b2'.repeat(32)}1c`;
const BASE64_SIGNATURE = Buffer.from(HEX_SIGNATURE.slice(2), 'hex').toString('base64');
const JWT = 'eyJhbGciOiJFUzI1NksiLCJ0eXAiOiJKV1QifQ.eyJhY2NvdW50IjoiMHg3MDk5In0.c2lnbmVkLWJ5LXRoZS12ZW51ZQ';
const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ORDER_ID = `0x${'00000000000004d2'}${'9f'.repeat(24)}`;
const TX_HASH = `0x${'c3'.repeat(32)}`;
// Values are redacted once the process holds them (a key when loaded, a signature when made);
// everything else below is redacted by field name, or on sight (JWTs, bearer credentials).
registerSecret(KEY);
registerRecentSecret(HEX_SIGNATURE);
const SECRET_FRAGMENTS = [
  KEY.slice(2, 22),
  'a1a1a1a1a1',
  BASE64_SIGNATURE.slice(0, 20),
  JWT.slice(0, 24),
  'not-shaped-like-anything',
];

function memory(): { lines: string[]; write(line: string): void } {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

function expectNoSecrets(text: string): void {
  for (const fragment of SECRET_FRAGMENTS) expect(text).not.toContain(fragment);
}

describe('createLogger', () => {
  it('writes JSON lines with secrets redacted by path, by name and by shape, keeping the rest', () => {
    const out = memory();
    const logger = createLogger({ level: 'info', pretty: 'auto', destination: out });
    logger.info(
      {
        account: ACCOUNT,
        permit: { account: ACCOUNT, nonce_anchor: '7', nonce_bitmap_index: 3, signature: BASE64_SIGNATURE },
        permit_params: { signature: BASE64_SIGNATURE },
        body: { account_signature: HEX_SIGNATURE, signer_signature: HEX_SIGNATURE },
        headers: { authorization: `Bearer ${JWT}` },
        login: { access_token: JWT, refresh_token: 'not-shaped-like-anything' },
        deep: { a: { b: { private_key: 'not-shaped-like-anything' } } },
        note: `pasted ${KEY} by mistake`,
      },
      `placing order for ${ACCOUNT} with ${JWT}`,
    );
    expect(out.lines).toHaveLength(1);
    const text = out.lines.join('');
    expectNoSecrets(text);
    const entry = JSON.parse(text) as Record<string, unknown>;
    expect(entry['msg']).toBe(`placing order for ${ACCOUNT} with [redacted]`);
    expect(entry['permit']).toEqual({
      account: ACCOUNT,
      nonce_anchor: '7',
      nonce_bitmap_index: 3,
      signature: '[redacted]',
    });
    expect(entry['headers']).toEqual({ authorization: '[redacted]' });
    expect(entry['note']).toBe('pasted [redacted] by mistake');
    expect(entry['level']).toBe(30);
  });

  it('redacts errors logged directly, under err, nested, and through their cause', () => {
    const out = memory();
    const logger = createLogger({ level: 'info', pretty: false, destination: out });
    const cause = new Error(`venue said: bad signature ${HEX_SIGNATURE}`);
    const error = new PerpbotError(`signing failed with ${KEY}`, {
      code: 'INVALID_VALUE',
      details: { signature: BASE64_SIGNATURE, market: 1 },
      cause,
    });
    logger.error(error);
    logger.error({ err: error }, 'order refused');
    logger.warn({ attempt: 2, context: { error } }, `retrying after ${JWT}`);
    expect(out.lines).toHaveLength(3);
    const text = out.lines.join('');
    expectNoSecrets(text);
    const [direct, underErr, nested] = out.lines.map((l) => JSON.parse(l) as Record<string, any>);
    expect(direct?.['msg']).toBe('signing failed with [redacted]');
    expect(direct?.['err']).toMatchObject({
      type: 'PerpbotError',
      code: 'INVALID_VALUE',
      details: { market: 1, signature: '[redacted]' },
    });
    expect(underErr?.['err']?.['cause']?.['message']).toBe('venue said: bad signature [redacted]');
    expect(String(underErr?.['err']?.['stack'])).toContain('signing failed with [redacted]');
    expect(nested?.['context']?.['error']?.['message']).toBe('signing failed with [redacted]');
    expect(nested?.['attempt']).toBe(2);
  });

  it('keeps order ids and tx hashes readable in messages and fields (reconciliation lines)', () => {
    const out = memory();
    const logger = createLogger({ level: 'info', pretty: false, destination: out });
    logger.warn(
      { difference: { type: 'order_closed', orderId: ORDER_ID, intentId: 'probe-1' }, txHash: TX_HASH },
      `reconciliation (start): order ${ORDER_ID} (intent probe-1) left the book while unobserved: cancelled`,
    );
    const entry = JSON.parse(out.lines[0] ?? '{}') as Record<string, any>;
    expect(entry['msg']).toBe(
      `reconciliation (start): order ${ORDER_ID} (intent probe-1) left the book while unobserved: cancelled`,
    );
    expect(entry['difference']['orderId']).toBe(ORDER_ID);
    expect(entry['txHash']).toBe(TX_HASH);
  });

  it('redacts child bindings and keeps them in every line', () => {
    const out = memory();
    const logger = createLogger({ level: 'info', pretty: false, destination: out }).child({
      strategy: 'market-maker',
      market: 1,
      signer_key: KEY,
    });
    logger.info({ intentId: 'i-1' }, 'quote');
    const entry = JSON.parse(out.lines[0] ?? '{}') as Record<string, unknown>;
    expect(entry).toMatchObject({ strategy: 'market-maker', market: 1, intentId: 'i-1', msg: 'quote' });
    expectNoSecrets(out.lines.join(''));
  });

  it('pretty-prints when asked, still without secrets', () => {
    const chunks: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk.toString());
        callback();
      },
    });
    const logger = createLogger({ level: 'info', pretty: true, destination });
    logger.info({ permit: { signature: BASE64_SIGNATURE, nonce_anchor: '7' }, note: KEY }, `login with ${JWT}`);
    const text = chunks.join('');
    expect(text).toContain('login with [redacted]');
    expect(text).toContain('nonce_anchor');
    expect(() => JSON.parse(text)).toThrow();
    expectNoSecrets(text);
  });

  it('honours the level', () => {
    const out = memory();
    const logger = createLogger({ level: 'warn', pretty: false, destination: out });
    logger.info('hidden');
    logger.warn('shown');
    expect(out.lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['shown']);
  });

  it('takes the logging section of a config as it is', async () => {
    const config = await loadConfig({
      text: 'venue: {profile: sim}\nlogging: {level: debug, pretty: false}\nrisk: {max_order_notional: "1", max_position_per_market: "1", max_open_orders: 1, max_actions_per_second: 1, kill_switch: {max_loss: "1"}}\nstrategies: [{name: s, module: strategies/s.ts, markets: [1]}]',
      env: {},
    });
    const out = memory();
    createLogger({ ...config.logging, destination: out }).debug({ market: 1 }, 'tick');
    expect(JSON.parse(out.lines[0] ?? '{}')).toMatchObject({ level: 20, market: 1, msg: 'tick' });
  });

  it('has a silent logger for tests', () => {
    const logger = createSilentLogger();
    expect(logger.isLevelEnabled('fatal')).toBe(false);
    expect(() => logger.error(new Error('nothing happens'))).not.toThrow();
  });
});
