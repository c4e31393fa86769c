import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/core/clock.js';
import { redactRecordingText, redactText } from '../../../../src/core/redactor.js';
import { registerRecentSecret, registerSecret } from '../../../../src/core/secretRegistry.js';
import { placeLimit } from '../../../../src/engine/intents/intentBuilders.js';
import { readRecording } from '../../../../src/runtime/recording/readRecording.js';
import type { RecordingRecord } from '../../../../src/runtime/recording/recordingRecords.js';
import { RecordingWriter } from '../../../../src/runtime/recording/recordingWriter.js';

const ACCOUNT = '0x24dd70c10dD1114a611393267511635Cf45b0e8b';
const DESCRIPTION = {
  venue: { profile: 'sim', restUrl: 'http://127.0.0.1:1', wsUrl: 'ws://127.0.0.1:1' },
  markets: [1],
  channels: ['orderbook'],
  flight: { account: ACCOUNT, signer: ACCOUNT, runId: 'mx0325z7' },
};
const LIMITS = { segmentBytes: 1 << 20, segmentMs: 3_600_000, maxDiskBytes: 1 << 24 };
// Fixed test values: a key, a signature made with it and an order id, each 32+ bytes of hex or base64.
const PRIVATE_KEY = `0x${'7b'.repeat(32)}`;
const SIGNATURE = '2RMBpqZCq0qJBbkQ0HWXFUpWsnnxIzqSuEmhg24qQKYJlpS2KPM6KrzAbIiZYsVdjv+zW1xiz1STYtoXbQb6KQ==';
const ORDER_ID = '0x37acf1ced368b3823714ab37373e2e6ce2b3d14c4aaf296f';
const REFRESH_TOKEN = 'r3fr3sh-t0k3n-n0t-a-jwt-0123456789abcdef';
const CONTROL_TOKEN = 'control-token-for-the-flight-test-42';

async function segmentText(dir: string): Promise<string> {
  const names = await readdir(dir);
  const texts = await Promise.all(names.map(async (n) => gunzipSync(await readFile(join(dir, n))).toString('utf8')));
  return texts.join('');
}

describe('the flight records and the recording redaction rule', () => {
  let dir: string;
  let clock: ManualClock;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-flight-records-'));
    clock = new ManualClock(Date.UTC(2026, 10, 28));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes and reads back connection, rest, intent, admitted, outcome, order and marker records (bigints as strings)', async () => {
    const writer = await RecordingWriter.open({ dir, clock, description: DESCRIPTION, limits: LIMITS });
    writer.connection('bot', { status: 'authenticated', connections: 1 });
    await clock.advance(5);
    writer.rest({
      method: 'POST',
      path: '/v1/orders/place',
      body: '{"market_id":1}',
      sentAt: clock.now() - 3,
      status: 200,
      answer: '{"data":{}}',
    });
    writer.rest({ method: 'GET', path: '/v1/markets', sentAt: clock.now(), status: 0, answer: '', failure: 'Timeout' });
    const intent = placeLimit({
      intentId: 'mm-1',
      strategy: 'mm',
      marketId: 1,
      side: 'buy',
      size: '0.001',
      price: '65000',
      postOnly: true,
      clientOrderId: 12345678901234567890n,
    });
    writer.engineRecord('intent', intent);
    // Admitted at the time its rate limit counted it, a millisecond before the writer's clock.
    writer.admitted('mm-1', clock.now() - 1);
    writer.engineRecord('outcome', { type: 'accepted', intentId: 'mm-1', orderId: ORDER_ID });
    writer.engineRecord('order', { type: 'placed', intentId: 'mm-1', orderId: ORDER_ID });
    writer.marker('strategies_started');
    await writer.close();

    const records: RecordingRecord[] = [];
    for await (const r of readRecording(dir)) records.push(r);
    expect(records.map((r) => r.type)).toEqual([
      'header',
      'connection',
      'rest',
      'rest',
      'intent',
      'admitted',
      'outcome',
      'order',
      'marker',
    ]);
    expect(records[5]).toEqual({ type: 'admitted', t: Date.UTC(2026, 10, 28) + 4, intentId: 'mm-1' });
    expect(records[0]).toMatchObject({ flight: DESCRIPTION.flight });
    expect(records[2]).toMatchObject({
      t: Date.UTC(2026, 10, 28) + 5,
      sentAt: Date.UTC(2026, 10, 28) + 2,
      status: 200,
    });
    expect(records[3]).toMatchObject({ status: 0, failure: 'Timeout' });
    expect(records[4]).toMatchObject({
      intent: { kind: 'placeLimit', price: '65000', clientOrderId: '12345678901234567890' },
    });
  });

  it('a registered key, control token, JWT and refresh token never reach a segment; signatures and order ids do', async () => {
    registerSecret(PRIVATE_KEY);
    registerSecret(CONTROL_TOKEN);
    // The log redactor hides the signatures we made; the recording keeps them.
    registerRecentSecret(SIGNATURE);
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmbGlnaHQifQ.c2lnbmF0dXJlLW9mLXRoZS1qd3Q';
    const writer = await RecordingWriter.open({ dir, clock, description: DESCRIPTION, limits: LIMITS });
    writer.frame('bot', JSON.stringify({ channel: 'orders', data: { order_id: ORDER_ID, note: PRIVATE_KEY } }));
    writer.rest({
      method: 'POST',
      path: '/v1/orders/place',
      body: JSON.stringify({ permit: { signature: SIGNATURE }, debug: `key ${PRIVATE_KEY.slice(2)}` }),
      sentAt: clock.now(),
      status: 200,
      answer: JSON.stringify({ data: { order_id: ORDER_ID, access_token: jwt, refresh_token: REFRESH_TOKEN } }),
    });
    writer.gap('bot', `closed: control token ${CONTROL_TOKEN}`);
    await writer.close();

    const text = await segmentText(dir);
    for (const secret of [PRIVATE_KEY, PRIVATE_KEY.slice(2), CONTROL_TOKEN, jwt, REFRESH_TOKEN])
      expect(text).not.toContain(secret);
    expect(text).toContain(JSON.stringify(SIGNATURE).slice(1, -1));
    expect(text).toContain(ORDER_ID);
    expect(text).toContain('[redacted]');
  });

  it('redactRecordingText keeps what redactText hides for logs (a registered signature), and hides the rest alike', () => {
    registerRecentSecret(SIGNATURE);
    registerSecret(PRIVATE_KEY);
    const body = `{"signature":"${SIGNATURE}","order_id":"${ORDER_ID}","k":"${PRIVATE_KEY}","token":"abc","jwt":"x"}`;
    expect(redactText(body)).not.toContain(SIGNATURE);
    const recorded = redactRecordingText(body);
    expect(recorded).toContain(SIGNATURE);
    expect(recorded).toContain(ORDER_ID);
    expect(recorded).not.toContain(PRIVATE_KEY);
    expect(recorded).toContain('"token":"[redacted]"');
    expect(recorded).toContain('"jwt":"[redacted]"');
  });
});
