import { firstValueFrom, type Subscription } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import type { ChannelMessage } from '../../../src/venue/schemas/wsFrames.js';
import { VenueWsClient, type ConnectionState } from '../../../src/venue/ws/venueWsClient.js';
import { oracleFrame, ScriptedVenue, tradeFrame } from './scriptedVenue.js';
import { advanceWhenSleeping, TestAuthenticator } from './testAuthenticator.js';

let venue: ScriptedVenue;
let client: VenueWsClient;
let clock: ManualClock;
const subscriptions: Subscription[] = [];

beforeEach(async () => {
  venue = await ScriptedVenue.start();
  clock = new ManualClock(0);
});

afterEach(async () => {
  for (const s of subscriptions.splice(0)) s.unsubscribe();
  await client.close();
  await venue.close();
});

/** Records everything a subscriber sees, including errors and completion. */
function record(source: {
  subscribe: (o: {
    next: (m: ChannelMessage) => void;
    error: (e: unknown) => void;
    complete: () => void;
  }) => Subscription;
}): {
  events: unknown[];
} {
  const events: unknown[] = [];
  subscriptions.push(
    source.subscribe({
      next: (m) => events.push(m),
      error: (e) => events.push({ error: e }),
      complete: () => events.push('complete'),
    }),
  );
  return { events };
}

function states(): ConnectionState[] {
  const seen: ConnectionState[] = [];
  subscriptions.push(client.connectionState$.subscribe((s) => seen.push(s)));
  return seen;
}

describe('VenueWsClient reconnects', () => {
  it('after a drop: reconnects with backoff, re-authenticates, resubscribes everything; subscribers never notice', async () => {
    client = new VenueWsClient({
      url: venue.url,
      knownMarketIds: async () => [1, 2],
      clock,
      staleAfterBlocks: 0,
      authenticator: new TestAuthenticator(clock),
      reconnect: { baseMs: 100, jitter: 0 },
    });
    const seen = states();
    const trades = record(client.channel('trades', { marketIds: [2] }));
    const orders = record(client.channel('orders'));
    await venue.frameWith('subscribe', 'trades');
    await venue.frameWith('subscribe', 'orders');

    venue.drop();
    await advanceWhenSleeping(clock, 100);
    await venue.connectionCount(2);
    const onSecond = (method: string, channel?: string): Promise<unknown> =>
      venue.nextFrame(
        (f) =>
          f.connection === 1 &&
          f.frame.method === method &&
          (channel === undefined || f.frame.params.channel === channel),
      );
    await onSecond('auth_v2');
    const resubscribed = (await onSecond('subscribe', 'trades')) as { frame: { params: unknown } };
    await onSecond('subscribe', 'orders');
    expect(resubscribed.frame.params).toEqual({ channel: 'trades', market_ids: [2] });

    const next = firstValueFrom(client.channel('trades', { marketIds: [2] }));
    venue.push(tradeFrame(2, 'after'));
    expect((await next).channel).toBe('trades');
    expect(trades.events).toHaveLength(1);
    expect(orders.events).toEqual([]);
    const statuses = seen.map((s) => s.status);
    expect(statuses).toEqual(['connecting', 'open', 'authenticated', 'reconnecting', 'open', 'authenticated']);
    expect(seen[3]?.reason).toMatch(/closed by server/);
    expect(seen.at(-1)?.connections).toBe(2);
    expect(client.metrics.reconnects).toBe(1);
  });

  it('backs off exponentially while the venue is unreachable', async () => {
    const port = Number(new URL(venue.url).port);
    await venue.close();
    client = new VenueWsClient({
      url: `ws://127.0.0.1:${port}`,
      knownMarketIds: async () => [1],
      clock,
      staleAfterBlocks: 0,
      reconnect: { baseMs: 100, maxMs: 1000, jitter: 0 },
    });
    const seen = states();
    for (const delay of [100, 200, 400, 800, 1000]) {
      await advanceWhenSleeping(clock, delay);
    }
    const started = clock.now();
    expect(started).toBe(2500);
    expect(seen.filter((s) => s.status === 'reconnecting').length).toBeGreaterThanOrEqual(5);
    venue = await ScriptedVenue.start(); // for afterEach; the client above keeps failing until closed
  });

  it('treats oracle silence for the configured number of blocks as a dead connection', async () => {
    client = new VenueWsClient({
      url: venue.url,
      knownMarketIds: async () => [1],
      clock,
      blockMs: 100,
      staleAfterBlocks: 5,
      reconnect: { baseMs: 50, jitter: 0 },
    });
    const seen = states();
    const oracle = record(client.channel('oracle', { marketIds: [1] }));
    await venue.frameWith('subscribe', 'oracle');
    // Heartbeats keep it alive past the limit…
    const first = firstValueFrom(client.channel('oracle', { marketIds: [1] }));
    await clock.advance(300);
    venue.push(oracleFrame(1, { '1': { mark_price: '1000000000000000000' } }));
    await first;
    await clock.advance(400);
    expect(venue.sockets).toHaveLength(1);
    // …and silence past it ends the connection.
    await clock.advance(100);
    await advanceWhenSleeping(clock, 50);
    await venue.connectionCount(2);
    const reconnecting = seen.find((s) => s.status === 'reconnecting');
    expect(reconnecting?.reason).toMatch(/stale: no oracle message for 500 ms/);
    await venue.nextFrame((f) => f.connection === 1 && f.frame.params.channel === 'oracle');
    expect(oracle.events).toHaveLength(1);
  });

  it("reports each connection's first oracle frame once (its blocks are counted from it), and a gap on it apart", async () => {
    client = new VenueWsClient({
      url: venue.url,
      knownMarketIds: async () => [1],
      clock,
      blockMs: 100,
      reconnect: { baseMs: 50, jitter: 0 },
    });
    const seen = states();
    const counted: number[] = [];
    const lost: number[] = [];
    subscriptions.push(client.streamCounted$.subscribe((atMs) => counted.push(atMs)));
    subscriptions.push(client.framesLost$.subscribe((l) => lost.push(l.firstMissingBlock)));
    const oracle = record(client.channel('oracle', { marketIds: [1] }));
    await venue.frameWith('subscribe', 'oracle');
    const marks = async (blocks: number[]): Promise<void> => {
      const seen = oracle.events.length + blocks.length;
      for (const block of blocks) venue.push(oracleFrame(block, { '1': { mark_price: '1000000000000000000' } }));
      while (oracle.events.length < seen) await new Promise((r) => setImmediate(r));
    };
    await clock.advance(100);
    await marks([10, 11]);
    await clock.advance(100);
    await marks([14]);
    expect(counted).toEqual([100]);
    expect(lost).toEqual([12]);

    venue.drop();
    // The staleness watch sleeps too: advance once the reconnect's backoff has begun.
    while (!seen.some((st) => st.status === 'reconnecting')) await new Promise((r) => setImmediate(r));
    await clock.advance(50);
    await venue.connectionCount(2);
    await venue.nextFrame((f) => f.connection === 1 && f.frame.params.channel === 'oracle');
    await clock.advance(200);
    // A new connection counts afresh from its first frame, whatever its block.
    await marks([40, 41]);
    expect(counted).toHaveLength(2);
    expect(counted[1]).toBe(clock.now());
    expect(lost).toEqual([12]);
  });

  it('stops watching staleness, instead of reconnecting forever, when the oracle heartbeat is refused', async () => {
    venue.respond = (seen, socket) => {
      if (seen.frame.method !== 'subscribe' || seen.frame.params.channel !== 'oracle') return false;
      socket.send(JSON.stringify({ type: 'error', message: 'invalid channel: oracle' }));
      return true;
    };
    const warnings: string[] = [];
    client = new VenueWsClient({
      url: venue.url,
      knownMarketIds: async () => [1],
      clock,
      blockMs: 100,
      staleAfterBlocks: 5,
      logger: { debug: () => undefined, warn: (_o, m) => warnings.push(m ?? '') },
    });
    await venue.frameWith('subscribe', 'oracle');
    while (!warnings.some((w) => w.includes('heartbeat'))) await new Promise((r) => setTimeout(r, 1));
    // Ten times the staleness limit in virtual time: the watch wakes once, sees it is off and ends.
    await clock.advance(5000);
    expect(clock.pendingSleeps).toBe(0);
    expect(client.metrics.reconnects).toBe(0);
    expect(venue.sockets).toHaveLength(1);
  });

  it('never sends more than 10 frames per second', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => i + 1);
    client = new VenueWsClient({ url: venue.url, knownMarketIds: async () => ids, clock, staleAfterBlocks: 0 });
    record(client.channel('orderbook'));
    await venue.frameWith('subscribe', 'orderbook');
    for (const id of ids) record(client.channel('trades', { marketIds: [id] }));
    while (clock.pendingSleeps === 0) await new Promise((r) => setTimeout(r, 1));
    await venue.nextFrame(() => true, 9);
    // Virtual time stands still: whatever the client has written by the pong is all it sends in this second.
    await venue.flush();
    expect(venue.frames).toHaveLength(10);
    await clock.advance(1000);
    await venue.nextFrame(() => true, 12);
    expect(venue.frames).toHaveLength(13);
    expect(venue.frames.at(-1)?.frame.params.market_ids).toEqual(ids);
  });
});
