import { firstValueFrom, take, toArray, type Subscription } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import type { TradesMessage } from '../../../src/venue/schemas/wsFramesTrades.js';
import { VenueWsClient } from '../../../src/venue/ws/venueWsClient.js';
import { ScriptedVenue, tradeFrame } from './scriptedVenue.js';

let venue: ScriptedVenue;
let client: VenueWsClient;
const subscriptions: Subscription[] = [];

function makeClient(
  extra: { logger?: { debug(o: object, m?: string): void; warn(o: object, m?: string): void } } = {},
): VenueWsClient {
  return new VenueWsClient({
    url: venue.url,
    knownMarketIds: async () => [1, 2, 3],
    clock: new ManualClock(0),
    staleAfterBlocks: 0,
    ...extra,
  });
}

beforeEach(async () => {
  venue = await ScriptedVenue.start();
});

afterEach(async () => {
  for (const s of subscriptions.splice(0)) s.unsubscribe();
  await client.close();
  await venue.close();
});

function errorOf(source: { subscribe: (o: { error: (e: unknown) => void }) => Subscription }): Promise<unknown> {
  return new Promise((resolve) => {
    subscriptions.push(source.subscribe({ error: resolve }));
  });
}

describe('VenueWsClient subscriptions', () => {
  it('shares identical subscriptions: one subscribe frame, both subscribers fed, unsubscribe after the last leaves', async () => {
    client = makeClient();
    const trades = client.channel('trades', { marketIds: [1] });
    const first = firstValueFrom(trades.pipe(take(2), toArray()));
    const second = firstValueFrom(trades.pipe(take(2), toArray()));
    const keep = trades.subscribe();
    await venue.frameWith('subscribe', 'trades');
    venue.push(tradeFrame(1, 'a'));
    venue.push(tradeFrame(1, 'b'));
    const [a, b] = await Promise.all([first, second]);
    expect(a.map((m) => m.trades[0]?.id)).toEqual(['a', 'b']);
    expect(b).toEqual(a);
    expect(venue.sent('subscribe', 'trades')).toHaveLength(1);
    expect(venue.sent('subscribe', 'trades')[0]?.frame.params).toEqual({ channel: 'trades', market_ids: [1] });
    expect(venue.sent('unsubscribe')).toHaveLength(0);
    keep.unsubscribe();
    const unsubscribe = await venue.frameWith('unsubscribe', 'trades');
    expect(unsubscribe.frame.params).toEqual({ channel: 'trades' });
  });

  it('puts the union of filters on the wire and narrows each subscriber to its own markets', async () => {
    client = makeClient();
    const one: TradesMessage[] = [];
    subscriptions.push(client.channel('trades', { marketIds: [1] }).subscribe((m) => one.push(m)));
    await venue.frameWith('subscribe', 'trades');
    const twoDone = firstValueFrom(client.channel('trades', { marketIds: [2, 1] }).pipe(take(2), toArray()));
    const second = await venue.nextFrame(
      (f) =>
        f.frame.method === 'subscribe' &&
        f.frame.params.market_ids !== undefined &&
        (f.frame.params.market_ids as number[]).length === 2,
    );
    expect(second.frame.params.market_ids).toEqual([1, 2]);
    const allDone = firstValueFrom(client.channel('trades').pipe(take(3), toArray()));
    const third = await venue.nextFrame(
      (f) => f.frame.method === 'subscribe' && f.frame.params.market_ids === undefined,
    );
    expect(third.frame.params).toEqual({ channel: 'trades' });
    venue.push(tradeFrame(2, 'x'));
    venue.push(tradeFrame(1, 'y'));
    venue.push(tradeFrame(3, 'z'));
    const two = await twoDone;
    expect(two.map((m) => m.trades[0]?.id)).toEqual(['x', 'y']);
    const all = await allDone;
    expect(all.map((m) => m.trades[0]?.id)).toEqual(['x', 'y', 'z']);
    expect(one.map((m) => m.trades[0]?.id)).toEqual(['y']);
  });

  it('refuses market ids the venue does not have, without subscribing', async () => {
    client = makeClient();
    const error = await errorOf(client.channel('orderbook', { marketIds: [1, 9] }));
    expect(error).toMatchObject({ code: 'WS_UNKNOWN_MARKET', details: expect.objectContaining({ unknown: [9] }) });
    expect(venue.sent('subscribe', 'orderbook')).toHaveLength(0);
  });

  it('errors the channel when the ack applied all markets although a filter was asked', async () => {
    client = makeClient();
    venue.ackMarketIds = () => [];
    const error = await errorOf(client.channel('trades', { marketIds: [2] }));
    expect(error).toMatchObject({
      code: 'WS_FILTER_IGNORED',
      details: expect.objectContaining({ requested: [2], applied: 'all' }),
    });
    // Nobody is left on the channel, so the ignored subscription is dropped on the venue too.
    await venue.frameWith('unsubscribe', 'trades');
  });

  it('errors the channel when the ack lists every venue market although a filter was asked', async () => {
    client = makeClient();
    venue.ackMarketIds = () => [1, 2, 3];
    const error = await errorOf(client.channel('trades', { marketIds: [2] }));
    expect(error).toMatchObject({
      code: 'WS_FILTER_IGNORED',
      details: expect.objectContaining({ requested: [2], applied: 'all' }),
    });
  });

  it('accepts an ack listing every venue market for an unfiltered subscription, as the spec words it', async () => {
    client = makeClient();
    venue.ackMarketIds = (requested) => requested ?? [1, 2, 3];
    const errors: unknown[] = [];
    // A filtered subscription first, so the client has read the venue's market list.
    subscriptions.push(client.channel('oracle', { marketIds: [1] }).subscribe({ error: (e) => errors.push(e) }));
    await venue.frameWith('subscribe', 'oracle');
    const got = firstValueFrom(client.channel('trades'));
    await venue.frameWith('subscribe', 'trades');
    venue.push(tradeFrame(3, 'q'));
    expect((await got).trades[0]?.id).toBe('q');
    expect(errors).toEqual([]);
  });

  it('errors an unfiltered channel whose ack lists only some of the venue markets', async () => {
    client = makeClient();
    venue.ackMarketIds = (requested) => requested ?? [1, 2];
    subscriptions.push(client.channel('oracle', { marketIds: [1] }).subscribe());
    await venue.frameWith('subscribe', 'oracle');
    const error = await errorOf(client.channel('trades'));
    expect(error).toMatchObject({
      code: 'WS_FILTER_MISMATCH',
      details: expect.objectContaining({ requested: 'all', applied: [1, 2] }),
    });
  });

  it('errors the channel when the ack applied other markets than requested', async () => {
    client = makeClient();
    venue.ackMarketIds = () => [3];
    const error = await errorOf(client.channel('trades', { marketIds: [2] }));
    expect(error).toMatchObject({ code: 'WS_FILTER_MISMATCH' });
  });

  it('accepts an all-markets ack for an unfiltered subscription', async () => {
    client = makeClient();
    const got = firstValueFrom(client.channel('trades'));
    await venue.frameWith('subscribe', 'trades');
    venue.push(tradeFrame(3, 'q'));
    expect((await got).trades[0]?.id).toBe('q');
  });

  it('delivers a venue error frame to that channel only', async () => {
    client = makeClient();
    venue.respond = (seen, socket) => {
      if (seen.frame.method !== 'subscribe' || seen.frame.params.channel !== 'trades') return false;
      socket.send(JSON.stringify({ type: 'error', status: 'error', message: 'invalid channel: trades' }));
      return true;
    };
    const oracle: unknown[] = [];
    subscriptions.push(
      client.channel('oracle').subscribe({ next: (m) => oracle.push(m), error: (e) => oracle.push(e) }),
    );
    const error = await errorOf(client.channel('trades'));
    expect(error).toMatchObject({
      code: 'WS_CHANNEL_REFUSED',
      details: { channel: 'trades', serverMessage: 'invalid channel: trades' },
    });
    expect(oracle).toEqual([]);
  });

  it.each([
    ['with its channel', { channel: 'trades' }],
    ['without a channel field', {}],
  ])(
    "treats the venue's refusal, a subscribe ack with status error, as an error frame (%s)",
    async (_name, channelField) => {
      client = makeClient();
      const message = 'invalid channel: trades';
      venue.respond = (seen, socket) => {
        if (seen.frame.method !== 'subscribe' || seen.frame.params.channel !== 'trades') return false;
        socket.send(
          JSON.stringify({ type: 'subscribed', method: 'subscribe', status: 'error', ...channelField, message }),
        );
        return true;
      };
      const oracle: unknown[] = [];
      subscriptions.push(
        client.channel('oracle').subscribe({ next: (m) => oracle.push(m), error: (e) => oracle.push(e) }),
      );
      const error = await errorOf(client.channel('trades'));
      expect(error).toMatchObject({
        code: 'WS_CHANNEL_REFUSED',
        details: { channel: 'trades', serverMessage: message },
      });
      expect(oracle).toEqual([]);
    },
  );

  it('routes an error frame that names its status (code, `<Status>: ` prefix, no channel field)', async () => {
    client = makeClient();
    const message = 'Unauthenticated: authentication required for trades channel';
    venue.respond = (seen, socket) => {
      if (seen.frame.method !== 'subscribe' || seen.frame.params.channel !== 'trades') return false;
      socket.send(JSON.stringify({ type: 'error', status: 'error', code: 'Unauthenticated', message }));
      return true;
    };
    const error = await errorOf(client.channel('trades'));
    expect(error).toMatchObject({ code: 'WS_CHANNEL_REFUSED', details: { channel: 'trades', serverMessage: message } });
  });

  it('counts and logs malformed frames without disturbing subscribers', async () => {
    const warnings: object[] = [];
    client = makeClient({ logger: { debug: () => undefined, warn: (o) => warnings.push(o) } });
    const received = firstValueFrom(client.channel('trades').pipe(take(1)));
    await venue.frameWith('subscribe', 'trades');
    venue.push('not json');
    venue.push({ channel: 'trades', type: 'update', data: { id: 'bad', price: 1.5 }, worker_timestamp: '1' });
    venue.push({ channel: 'oracle', type: 'update', data: {} });
    venue.push({ hello: 'world' });
    venue.push(tradeFrame(1, 'good'));
    expect((await received).trades[0]?.id).toBe('good');
    expect(client.metrics.malformedFrames).toBe(4);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatchObject({ reason: expect.stringMatching(/not JSON/) as unknown });
  });

  it('refuses out-of-range market ids at the call', () => {
    client = makeClient();
    expect(() => client.channel('trades', { marketIds: [65_536] })).toThrow(/marketIds/);
    expect(() => client.channel('trades', { marketIds: [-1] })).toThrow(/marketIds/);
  });

  it('sends nothing for a subscriber that left while its market ids were being checked', async () => {
    let release: (ids: number[]) => void = () => undefined;
    client = new VenueWsClient({
      url: venue.url,
      knownMarketIds: () => new Promise((resolve) => (release = resolve)),
      clock: new ManualClock(0),
      staleAfterBlocks: 0,
    });
    const early = client.channel('trades', { marketIds: [1] }).subscribe();
    subscriptions.push(client.channel('oracle').subscribe());
    await venue.frameWith('subscribe', 'oracle');
    early.unsubscribe();
    release([1]);
    await new Promise((r) => setImmediate(r));
    const unfiltered = client.channel('trades').subscribe();
    await venue.frameWith('subscribe', 'trades');
    await venue.flush();
    expect(venue.sent('subscribe', 'trades').map((f) => f.frame.params)).toEqual([{ channel: 'trades' }]);
    // Had the early subscriber's sink been attached after all, trades for market 1 would stay
    // wanted: the last subscriber leaving would narrow the subscription instead of ending it.
    const from = venue.frames.length;
    unfiltered.unsubscribe();
    const next = await venue.nextFrame((f) => f.frame.params.channel === 'trades', from);
    expect(next.frame).toEqual({ method: 'unsubscribe', params: { channel: 'trades' } });
  });

  it('resubscribe renews a live channel and ignores one that is not subscribed', async () => {
    client = makeClient();
    client.resubscribe('orderbook');
    subscriptions.push(client.channel('orderbook', { marketIds: [2] }).subscribe());
    await venue.frameWith('subscribe', 'orderbook');
    client.resubscribe('orderbook');
    const again = await venue.nextFrame(
      (f) => f.frame.method === 'subscribe' && f.frame.params.channel === 'orderbook',
      1,
    );
    expect(again.frame.params).toEqual({ channel: 'orderbook', market_ids: [2] });
    expect(venue.frames.map((f) => f.frame.method)).toEqual(['subscribe', 'unsubscribe', 'subscribe']);
  });

  it('completes every stream and the connection state on close()', async () => {
    client = makeClient();
    const done = firstValueFrom(client.channel('trades').pipe(toArray()));
    const states = firstValueFrom(client.connectionState$.pipe(toArray()));
    await venue.frameWith('subscribe', 'trades');
    await client.close();
    expect(await done).toEqual([]);
    expect((await states).at(-1)).toMatchObject({ status: 'closed' });
    await expect(firstValueFrom(client.channel('oracle'))).rejects.toMatchObject({ code: 'WS_CLOSED' });
  });
});
