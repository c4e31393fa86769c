import { describe, expect, it } from 'vitest';
import { canonicalIntent } from '../../../../src/runtime/replay/flight/canonicalIntent.js';
import { RecordedRest } from '../../../../src/runtime/replay/flight/recordedRest.js';
import type { RestRecord } from '../../../../src/runtime/recording/recordingRecords.js';

function exchange(path: string, answer: string, body?: object): RestRecord {
  return {
    type: 'rest',
    t: 2,
    sentAt: 1,
    method: body === undefined ? 'GET' : 'POST',
    path,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    status: 200,
    answer,
  };
}

function place(price: number, signature: string): object {
  return { market_id: 1, price_ticks: price, client_order_id: '7', permit: { nonce_bitmap_index: 0, signature } };
}

describe('RecordedRest: recorded answers for replayed requests', () => {
  it('answers a request only when the replay reaches its recorded exchange', async () => {
    const rest = new RecordedRest();
    let answered: string | undefined;
    const request = rest.fetch('http://x.invalid/v1/markets').then(async (r) => (answered = await r.text()));
    await Promise.resolve();
    expect(answered).toBeUndefined();
    rest.release(exchange('/v1/markets', '{"data":[]}'));
    await request;
    expect(answered).toBe('{"data":[]}');
  });

  it('gives two placements in flight together each its own answer, told apart by the order asked (not the permit)', async () => {
    const rest = new RecordedRest();
    const post = (body: object): Promise<string> =>
      rest
        .fetch('http://x.invalid/v1/orders/place', { method: 'POST', body: JSON.stringify(body) })
        .then((r) => r.text());
    const bid = post(place(100, 'replay-signature-a'));
    const ask = post(place(200, 'replay-signature-b'));
    // The venue answered the ask first.
    rest.release(exchange('/v1/orders/place', 'ask', place(200, 'recorded-signature-b')));
    rest.release(exchange('/v1/orders/place', 'bid', place(100, 'recorded-signature-a')));
    expect(await bid).toBe('bid');
    expect(await ask).toBe('ask');
  });

  it('answers a request asked after its exchange was replayed with that answer at once (the recorded refusal too), the same order only', async () => {
    const rest = new RecordedRest();
    const refused = { ...exchange('/v1/orders/place', 'post-only would cross', place(300, 'r')), status: 400 };
    rest.release(refused);
    rest.release(exchange('/v1/markets', 'markets-1'));
    rest.release(exchange('/v1/markets', 'markets-2'));
    expect(rest.unasked).toBe(3);
    const post = (body: object) =>
      rest.fetch('http://x.invalid/v1/orders/place', { method: 'POST', body: JSON.stringify(body) });
    // Another order waits for an exchange of its own; the refused one is answered as recorded.
    let other: Response | undefined;
    void post(place(301, 'replay')).then((r) => (other = r));
    const late = await post(place(300, 'replay'));
    expect([late.status, await late.text()]).toEqual([400, 'post-only would cross']);
    // Reads of one path, oldest first.
    expect(await (await rest.fetch('http://x.invalid/v1/markets')).text()).toBe('markets-1');
    expect(await (await rest.fetch('http://x.invalid/v1/markets')).text()).toBe('markets-2');
    await Promise.resolve();
    expect(other).toBeUndefined();
    expect(rest.unasked).toBe(0);
  });

  it('counts exchanges no request waited for, and fails what still waits when the recording ends', async () => {
    const rest = new RecordedRest();
    rest.release(exchange('/v1/journal-read', '{}'));
    expect(rest.unasked).toBe(1);
    const waiting = rest.fetch('http://x.invalid/v1/markets');
    rest.finish();
    await expect(waiting).rejects.toThrow('the recording ended first');
    await expect(rest.fetch('http://x.invalid/v1/markets')).rejects.toThrow('the recording has ended');
  });
});

describe('canonicalIntent', () => {
  it('is the same for intents asking the same, whatever their ids, and differs on a price', () => {
    const base = { kind: 'placeLimit', marketId: 1, side: 'buy', size: '0.001', price: '65000', postOnly: true };
    const a = canonicalIntent({ ...base, intentId: 'mm-a-1', clientOrderId: 5n });
    // The same fields in another order, another intent id and no client order id.
    const { kind, ...rest } = base;
    expect(canonicalIntent({ ...rest, intentId: 'mm-b-9', kind })).toBe(a);
    expect(canonicalIntent({ ...base, price: '65000.5', intentId: 'mm-a-1' })).not.toBe(a);
  });
});
