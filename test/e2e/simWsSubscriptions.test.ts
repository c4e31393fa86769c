import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { privateKeySigner } from '../../src/protocol/digestSigner.js';
import { FrameRecorder, isAck, isError, settle, startWsSim, type WsSim } from './simWsHarness.js';
import { canonicalSubscribeRefusalSchema } from '../../src/venue/schemas/wsWireCanonical.js';

const MAKER = privateKeySigner('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d').address;

let sim: WsSim;
let client: FrameRecorder;

beforeEach(async () => {
  sim = await startWsSim({ inboundFramesPerSecond: 1_000 });
  client = await FrameRecorder.connect(sim.url);
});

afterEach(async () => {
  expect(client.schemaFailures).toEqual([]);
  client.close();
  await sim.close();
});

describe('subscribe acknowledgements', () => {
  it('echo the applied market filter and state the count', async () => {
    const ack = await client.request(
      { method: 'subscribe', params: { channel: 'orderbook', market_ids: [2, 1, 2] } },
      isAck('orderbook'),
    );
    expect(ack).toEqual({
      type: 'subscribed',
      method: 'subscribe',
      status: 'success',
      message: 'subscribed to orderbook for 2 market(s)',
      channel: 'orderbook',
      data: { market_ids: [1, 2] },
    });
  });

  it('say all markets and list every market id when no filter or an empty one was sent', async () => {
    const everyMarket = sim.exchange.markets().map((market) => Number(market.market_id));
    expect(everyMarket).toEqual([1, 2, 3, 4]);
    const none = await client.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle'));
    expect(none['message']).toBe('subscribed to oracle for all markets');
    expect(none['data']).toEqual({ market_ids: everyMarket });
    const empty = await client.request(
      { method: 'subscribe', params: { channel: 'trades', market_ids: [] } },
      isAck('trades'),
    );
    expect(empty['message']).toBe('subscribed to trades for all markets');
    expect(empty['data']).toEqual({ market_ids: everyMarket });
  });

  it('under the subscribe fault "all", ack a filtered subscribe truthfully as all markets, every id listed', async () => {
    sim.ws.setSubscribeFault({ applied: 'all', channel: 'trades' });
    const ignored = await client.request(
      { method: 'subscribe', params: { channel: 'trades', market_ids: [2] } },
      isAck('trades'),
    );
    expect(ignored['message']).toBe('subscribed to trades for all markets');
    expect(ignored['data']).toEqual({ market_ids: [1, 2, 3, 4] });
    const untouched = await client.request(
      { method: 'subscribe', params: { channel: 'oracle', market_ids: [2] } },
      isAck('oracle'),
    );
    expect(untouched['data']).toEqual({ market_ids: [2] });
    sim.ws.setSubscribeFault(undefined);
  });

  it('acknowledge an id that names no market, which then never delivers', async () => {
    const ack = await client.request(
      { method: 'subscribe', params: { channel: 'oracle', market_ids: [999] } },
      isAck('oracle'),
    );
    expect(ack['status']).toBe('success');
    expect(ack['data']).toEqual({ market_ids: [999] });
    await client.request(
      { method: 'subscribe', params: { channel: 'orderbook', market_ids: [999] } },
      isAck('orderbook'),
    );
    // The same events do reach a subscriber of a real market, so the silence above is the filter's.
    const control = await FrameRecorder.connect(sim.url);
    await control.request({ method: 'subscribe', params: { channel: 'oracle', market_ids: [1] } }, isAck('oracle'));
    await control.request(
      { method: 'subscribe', params: { channel: 'orderbook', market_ids: [1] } },
      isAck('orderbook'),
    );
    sim.mineBlock();
    sim.deposit(MAKER);
    sim.place(MAKER, { side: 0, price_ticks: 649_000 });
    sim.mineBlock();
    await settle(client);
    await settle(control);
    expect(client.ofChannel('oracle')).toEqual([]);
    expect(client.ofChannel('orderbook')).toEqual([]);
    expect(control.ofChannel('oracle')).toHaveLength(2);
    expect(control.ofChannel('orderbook').map((f) => f['type'])).toEqual(['snapshot', 'update']);
    control.close();
  });

  it('refuse a subscribe to an unknown channel with the ack frame, status error and the venue text; an unsubscribe with an error frame', async () => {
    const refusal = await client.request({ method: 'subscribe', params: { channel: 'candles' } }, isAck('candles'));
    // Exactly the venue's refusal (venue-wire.md §3, subscribe refusal).
    expect(canonicalSubscribeRefusalSchema.parse(refusal)).toEqual({
      type: 'subscribed',
      method: 'subscribe',
      status: 'error',
      channel: 'candles',
      message: 'invalid channel: candles',
    });
    const unsubscribe = await client.request({ method: 'unsubscribe', params: { channel: 'candles' } }, isError);
    expect(unsubscribe).toMatchObject({
      code: 'InvalidArgument',
      message: 'invalid channel: candles',
      channel: 'candles',
      method: 'unsubscribe',
    });
  });

  it('refuse a private channel before authentication', async () => {
    for (const channel of ['orders', 'positions', 'fills', 'account']) {
      const refusal = await client.request({ method: 'subscribe', params: { channel } }, isAck(channel));
      expect(canonicalSubscribeRefusalSchema.parse(refusal)).toMatchObject({
        status: 'error',
        message: `authentication required for ${channel} channel`,
        channel,
      });
    }
  });

  it('acknowledge the funding channel and send nothing on it; answer an application ping without an error', async () => {
    const ack = await client.request({ method: 'subscribe', params: { channel: 'funding' } }, isAck('funding'));
    expect(ack).toMatchObject({ status: 'success', channel: 'funding' });
    const pong = await client.request({ op: 'ping' }, (f) => 'op' in f);
    expect(pong).toEqual({ op: 'pong' });
    sim.mineBlock();
    await settle(client);
    expect(client.ofChannel('funding')).toEqual([]);
    expect(client.frames.filter((f) => f['type'] === 'error' && f['channel'] !== 'barrier')).toEqual([]);
  });

  it('unsubscribe stops delivery and is acknowledged', async () => {
    await client.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle'));
    sim.mineBlock();
    await client.next((f) => f['channel'] === 'oracle' && f['type'] === 'update');
    const ack = await client.request(
      { method: 'unsubscribe', params: { channel: 'oracle' } },
      (f) => f['type'] === 'unsubscribed',
    );
    expect(ack).toMatchObject({ method: 'unsubscribe', status: 'success', channel: 'oracle' });
    const before = client.ofChannel('oracle').length;
    sim.mineBlock();
    await settle(client);
    expect(client.ofChannel('oracle').length).toBe(before);
  });
});

describe('malformed frames', () => {
  it('get an InvalidArgument error frame and the connection keeps working', async () => {
    const refusal = async (frame: unknown): Promise<Record<string, unknown>> => {
      const error = await client.request(frame, isError);
      expect(error).toMatchObject({ type: 'error', status: 'error', code: 'InvalidArgument' });
      return error;
    };
    expect((await refusal('{not json'))['message']).toBe('InvalidArgument: malformed frame: not JSON');
    expect((await refusal({}))['message']).toBe(
      'InvalidArgument: malformed frame: no method (expected one of subscribe, unsubscribe, auth_v2, auth)',
    );
    expect((await refusal(null))['message']).toBe('InvalidArgument: malformed frame: expected a JSON object, got null');
    expect((await refusal([1, 2, 3]))['message']).toBe(
      'InvalidArgument: malformed frame: expected a JSON object, got an array',
    );
    expect((await refusal('"subscribe"'))['message']).toBe(
      'InvalidArgument: malformed frame: expected a JSON object, got string',
    );
    expect((await refusal({ method: 'dance' }))['message']).toBe(
      'InvalidArgument: unknown method: dance (expected one of subscribe, unsubscribe, auth_v2, auth)',
    );
    expect((await refusal({ method: 7 }))['message']).toMatch(/^InvalidArgument: unknown method: 7 \(not a string\)/);
    const bad = await refusal({ method: 'subscribe', params: { market_ids: 'all' } });
    expect(bad).toMatchObject({
      method: 'subscribe',
      message: expect.stringMatching(/^InvalidArgument: malformed subscribe frame at params\./),
    });
    const noParams = await refusal({ method: 'unsubscribe' });
    expect(noParams).toMatchObject({
      method: 'unsubscribe',
      message: expect.stringMatching(/^InvalidArgument: malformed unsubscribe frame at params: /),
    });
    const from = client.frames.length;
    client.socket.send(Buffer.from('{"method":"subscribe"}'), { binary: true });
    expect(await client.next(isError, from)).toMatchObject({
      code: 'InvalidArgument',
      message: 'InvalidArgument: malformed frame: binary frames are not accepted',
    });
    const ack = await client.request({ method: 'subscribe', params: { channel: 'trades' } }, isAck('trades'));
    expect(ack['status']).toBe('success');
    // Nothing was treated as a channel error the client would route to a subscription.
    expect(client.frames.filter(isError).every((f) => f['channel'] === undefined)).toBe(true);
  });
});

describe('oversized frames', () => {
  it('close the connection with 1009 instead of being buffered', async () => {
    const big = await FrameRecorder.connect(sim.url);
    big.send({ method: 'subscribe', params: { channel: 'x'.repeat(70 * 1024) } });
    expect((await big.closed).code).toBe(1009);
    // Other connections are unaffected.
    expect(
      (await client.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle')))['status'],
    ).toBe('success');
  });
});

describe('inbound rate limit (venue-facts: 10 client frames per second)', () => {
  it('answers frames beyond 10 per second with an error and does not act on them', async () => {
    const limited = await startWsSim();
    const flooder = await FrameRecorder.connect(limited.url);
    try {
      for (let i = 0; i < 12; i++)
        flooder.send({ method: 'subscribe', params: { channel: 'oracle', market_ids: [i + 1] } });
      // One reply per frame, in order: twelve replies are all there will be.
      const replies = () => flooder.frames.filter((f) => isAck('oracle')(f) || isError(f));
      await vi.waitFor(() => expect(replies()).toHaveLength(12), { timeout: 5_000 });
      const acks = flooder.frames.filter(isAck('oracle'));
      const errors = flooder.frames.filter(isError);
      expect(acks).toHaveLength(10);
      expect(errors).toHaveLength(2);
      expect(errors[0]).toMatchObject({
        code: 'ResourceExhausted',
        message: 'ResourceExhausted: rate limited: at most 10 frames per second per connection',
      });
      expect(acks.at(-1)?.['data']).toEqual({ market_ids: [10] });
      expect(flooder.schemaFailures).toEqual([]);
    } finally {
      flooder.close();
      await limited.close();
    }
  });
});
