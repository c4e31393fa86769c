import { firstValueFrom, take, timeout, toArray, type Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type RunningSim } from '../../src/sim/index.js';
import { OrderBookFeed } from '../../src/venue/orderbook/orderBookFeed.js';
import { SignerNotActiveError } from '../../src/venue/ws/venueWsError.js';
import { VenueWsClient, type ConnectionState } from '../../src/venue/ws/venueWsClient.js';
import { readMarkets } from '../../src/venue/venueInfo.js';
import { wsAuthenticatorFromRest } from '../../src/venue/ws/wsAuthenticatorFromRest.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

/**
 * The WebSocket client against the real simulator over real sockets: public channels, private
 * channels after auth_v2, and a forced drop after which everything delivers again.
 */
const WAIT_MS = 10_000;

let sim: RunningSim;

/** Polls (real time: this is a real simulator) until the condition holds or WAIT_MS passes. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  sim = await startSim({ blockMs: 50, seed: 3 });
});

afterAll(async () => {
  await sim.close();
});

function clientFor(who: SimAccount): VenueWsClient {
  return new VenueWsClient({
    url: sim.wsUrl,
    knownMarketIds: async () => (await readMarkets(who.rest)).map((market) => Number(market.market_id)),
    authenticator: wsAuthenticatorFromRest({
      rest: who.rest,
      context: who.context,
      account: who.account,
      signer: who.signer,
    }),
    blockMs: 50,
    staleAfterBlocks: 40,
    reconnect: { baseMs: 50, maxMs: 500 },
  });
}

describe('VenueWsClient against the simulator', () => {
  it('delivers public channels: oracle per block and a checksum-verified order book', async () => {
    const who = await fundedAccount(sim, { register: false });
    const client = clientFor(who);
    try {
      const oracle = await firstValueFrom(
        client.channel('oracle', { marketIds: [1, 2] }).pipe(take(2), toArray(), timeout(WAIT_MS)),
      );
      expect(oracle[1]!.blockNumber).toBeGreaterThan(oracle[0]!.blockNumber);
      expect([...oracle[0]!.prices.keys()].sort()).toEqual([1, 2]);
      expect(oracle[0]!.prices.get(1)?.markPrice).toMatch(/^\d+(\.\d+)?$/);

      const feed = new OrderBookFeed(client);
      const views = await firstValueFrom(feed.book$(1).pipe(take(3), toArray(), timeout(WAIT_MS)));
      const last = views.at(-1)!;
      if (last.bestBid !== undefined && last.bestAsk !== undefined)
        expect(last.bestBid.priceWei).toBeLessThan(last.bestAsk.priceWei);
      expect(feed.metrics.checksumMismatches).toBe(0);
      expect(client.metrics.malformedFrames).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('refuses an unknown market id before subscribing', async () => {
    const who = await fundedAccount(sim, { register: false });
    const client = clientFor(who);
    try {
      await expect(firstValueFrom(client.channel('orderbook', { marketIds: [999] }))).rejects.toMatchObject({
        code: 'WS_UNKNOWN_MARKET',
      });
    } finally {
      await client.close();
    }
  });

  it('authenticates for private channels, and after a forced drop re-authenticates and every subscription delivers again', async () => {
    const who = await fundedAccount(sim);
    const client = clientFor(who);
    const states: ConnectionState[] = [];
    const subscriptions: Subscription[] = [];
    subscriptions.push(client.connectionState$.subscribe((s) => states.push(s)));
    const feed = new OrderBookFeed(client);
    try {
      const account = await firstValueFrom(client.channel('account').pipe(timeout(WAIT_MS)));
      expect(account.account.balance).toBe('1000');
      const orders = await firstValueFrom(client.channel('orders').pipe(timeout(WAIT_MS)));
      expect(orders.type).toBe('snapshot');
      expect(states.map((s) => s.status)).toContain('authenticated');

      // Keep every stream live across the drop; count only what arrives on the new connection.
      const seen = { oracle: 0, book: 0, account: 0, positions: 0 };
      const errors: unknown[] = [];
      const onSecond = (): boolean => (states.at(-1)?.connections ?? 0) >= 2;
      const count = (key: keyof typeof seen) => ({
        next: () => {
          if (onSecond()) seen[key]++;
        },
        error: (e: unknown) => errors.push(e),
        complete: () => errors.push(`${key} completed`),
      });
      subscriptions.push(
        client.channel('oracle').subscribe(count('oracle')),
        feed.book$(1).subscribe(count('book')),
        client.channel('account').subscribe(count('account')),
        client.channel('positions').subscribe(count('positions')),
      );
      await firstValueFrom(feed.book$(1).pipe(timeout(WAIT_MS)));

      expect(sim.controls.dropWebSockets()).toBeGreaterThan(0);
      await until(() => Object.values(seen).every((n) => n > 0));
      expect(errors).toEqual([]);
      const statuses = states.map((s) => s.status);
      expect(statuses.slice(statuses.indexOf('reconnecting'))).toEqual(['reconnecting', 'open', 'authenticated']);
      expect(client.metrics.reconnects).toBe(1);
    } finally {
      for (const s of subscriptions) s.unsubscribe();
      await client.close();
    }
  });

  it('stops private channels with a typed error when the signer is not Active', async () => {
    const who = await fundedAccount(sim, { register: false });
    const client = clientFor(who);
    try {
      const error = await firstValueFrom(client.channel('fills').pipe(timeout(WAIT_MS))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SignerNotActiveError);
      expect(error).toMatchObject({ signer: who.signer.address });
      const oracle = await firstValueFrom(client.channel('oracle').pipe(timeout(WAIT_MS)));
      expect(oracle.channel).toBe('oracle');
    } finally {
      await client.close();
    }
  });
});
