import { firstValueFrom, take, toArray, type Subscription } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { VenueError } from '../../../src/venue/venueError.js';
import { SignerNotActiveError } from '../../../src/venue/ws/venueWsError.js';
import { VenueWsClient } from '../../../src/venue/ws/venueWsClient.js';
import { oracleFrame, ScriptedVenue, tradeFrame } from './scriptedVenue.js';
import { advanceWhenSleeping, TestAuthenticator } from './testAuthenticator.js';

let venue: ScriptedVenue;
let client: VenueWsClient;
let clock: ManualClock;
let auth: TestAuthenticator;
const subscriptions: Subscription[] = [];

beforeEach(async () => {
  venue = await ScriptedVenue.start();
  clock = new ManualClock(0);
  auth = new TestAuthenticator(clock);
  client = new VenueWsClient({
    url: venue.url,
    knownMarketIds: async () => [1, 2],
    clock,
    staleAfterBlocks: 0,
    authenticator: auth,
  });
});

afterEach(async () => {
  for (const s of subscriptions.splice(0)) s.unsubscribe();
  await client.close();
  await venue.close();
});

const fill = {
  channel: 'fills',
  type: 'update',
  data: {
    id: 'f1',
    market_id: 1,
    order_id: '0xab',
    side: 'BUY',
    price: '100',
    size: '1',
    fee: '0.01',
    time: '1700000000000000000',
    liquidity_indicator: 'TAKER',
  },
  worker_timestamp: '1700000000000000000',
};

/** Waits (on real I/O) until the client has asked for the signer status `n` times. */
async function afterStatusCheck(n: number): Promise<void> {
  while (auth.statusChecks < n) await new Promise((r) => setTimeout(r, 1));
}

function errorOf(source: { subscribe: (o: { error: (e: unknown) => void }) => Subscription }): Promise<unknown> {
  return new Promise((resolve) => subscriptions.push(source.subscribe({ error: resolve })));
}

describe('VenueWsClient private channels', () => {
  it('sends auth_v2 before subscribing, then delivers, and reports authenticated', async () => {
    const got = firstValueFrom(client.channel('fills'));
    const authFrame = await venue.frameWith('auth_v2');
    expect(authFrame.frame.params).toEqual({
      account: auth.account,
      signer: auth.signer,
      message: 'WebSocket Authentication',
      // Sent bare, as the venue hands it out (venue-wire.md §3, auth_v2).
      nonce: '1'.padStart(64, '0'),
      signature: expect.stringMatching(/^0x[0-9a-f]+$/),
    });
    const subscribe = await venue.frameWith('subscribe', 'fills');
    expect(venue.frames.indexOf(subscribe)).toBeGreaterThan(venue.frames.indexOf(authFrame));
    venue.push(fill);
    expect((await got).fill).toMatchObject({ id: 'f1', market_id: 1, side: 'buy', time: 1_700_000_000_000_000_000n });
    expect(await firstValueFrom(client.connectionState$)).toMatchObject({ status: 'authenticated' });
  });

  it('authenticates once for several private channels and sends makers on the account channel', async () => {
    subscriptions.push(
      client.channel('orders').subscribe(),
      client.channel('account').subscribe(),
      client.channel('positions').subscribe(),
    );
    const account = await venue.frameWith('subscribe', 'account');
    await venue.frameWith('subscribe', 'orders');
    await venue.frameWith('subscribe', 'positions');
    expect(account.frame.params).toEqual({ channel: 'account', makers: [auth.account] });
    expect(venue.sent('auth_v2')).toHaveLength(1);
  });

  it('retries a refused auth with a fresh nonce, 1 s apart, while the signer is Active', async () => {
    venue.authStatus = (i) => (i < 2 ? 'error' : 'success');
    subscriptions.push(client.channel('orders').subscribe());
    await afterStatusCheck(1);
    await advanceWhenSleeping(clock, 1000);
    await afterStatusCheck(2);
    await advanceWhenSleeping(clock, 1000);
    await venue.frameWith('subscribe', 'orders');
    const nonces = venue.sent('auth_v2').map((f) => f.frame.params.nonce);
    expect(nonces).toHaveLength(3);
    expect(new Set(nonces).size).toBe(3);
    expect(auth.nonceFetchedAt).toEqual([0, 1000, 2000]);
    expect(auth.statusChecks).toBe(2);
  });

  it('stops with a typed error naming the signer when it is not Active, and leaves public channels alone', async () => {
    venue.authStatus = () => 'error';
    auth.status = 3;
    const trades = firstValueFrom(client.channel('trades'));
    const error = await errorOf(client.channel('positions'));
    expect(error).toBeInstanceOf(SignerNotActiveError);
    expect(error).toMatchObject({ code: 'WS_SIGNER_NOT_ACTIVE', signer: auth.signer, status: 3 });
    expect((error as Error).message).toContain(auth.signer);
    expect(venue.sent('auth_v2')).toHaveLength(1);
    expect(venue.sent('subscribe', 'positions')).toHaveLength(0);
    await venue.frameWith('subscribe', 'trades');
    venue.push(tradeFrame(1, 't'));
    expect((await trades).trades[0]?.id).toBe('t');
  });

  it('retries on the same connection with backoff when the nonce read fails transiently (a 503 is not a refusal), and never fails the channel', async () => {
    // Replies are never late here: only the nonce read fails.
    await client.close();
    client = new VenueWsClient({
      url: venue.url,
      knownMarketIds: async () => [1, 2],
      clock,
      staleAfterBlocks: 0,
      authenticator: auth,
      authReplyTimeoutMs: 60_000,
    });
    let failures = 2;
    const realFetch = auth.fetchNonce.bind(auth);
    auth.fetchNonce = async () => {
      if (failures-- > 0)
        throw new VenueError({ httpStatus: 503, rawBody: 'upstream unavailable', endpoint: 'GET /v1/auth/nonce' });
      return realFetch();
    };
    const errors: unknown[] = [];
    const got = firstValueFrom(client.channel('fills'));
    subscriptions.push(client.channel('orders').subscribe({ error: (e: unknown) => errors.push(e) }));
    const states: string[] = [];
    subscriptions.push(
      client.connectionState$.subscribe((state) =>
        states.push(`${state.status}${state.reason === undefined ? '' : `: ${state.reason}`}`),
      ),
    );
    await advanceWhenSleeping(clock, 1000);
    await advanceWhenSleeping(clock, 2000);
    await venue.frameWith('subscribe', 'fills');
    venue.push(fill);
    expect((await got).fill.id).toBe('f1');
    expect(errors).toEqual([]);
    expect(client.metrics.authRetries).toBe(2);
    expect(venue.sent('auth_v2')).toHaveLength(1);
    expect(
      states.some((s) => /^open: authentication failed transiently \(.*503.*\); retrying in \d+ ms$/.test(s)),
    ).toBe(true);
    expect(states.at(-1)).toBe('authenticated');
  });

  it('with the oracle heartbeat on, waits for the connection to show life before auth_v2, so a stalled stream cannot swallow the reply', async () => {
    await client.close();
    client = new VenueWsClient({
      url: venue.url,
      knownMarketIds: async () => [1, 2],
      clock,
      blockMs: 1000,
      staleAfterBlocks: 5,
      authenticator: auth,
    });
    // A stalled venue: it takes the heartbeat's subscribe but sends nothing back.
    venue.respond = (seen) => seen.frame.method === 'subscribe';
    subscriptions.push(client.channel('orders').subscribe());
    await venue.frameWith('subscribe', 'oracle');
    // Authentication would have begun (a nonce read) in the turn that sent the subscribe; a frame
    // it sent would be seen before the pong.
    expect(auth.nonceFetchedAt).toEqual([]);
    await venue.flush();
    expect(venue.sent('auth_v2')).toHaveLength(0);
    // The stream comes back: the first frame releases the authentication.
    venue.respond = undefined;
    venue.push(oracleFrame(1, { '1': { mark_price: '65000000000000000000000' } }));
    await venue.frameWith('auth_v2');
    await venue.frameWith('subscribe', 'orders');
    expect(venue.sent('auth_v2')).toHaveLength(1);
  });

  it('gives up after 3 retries with WS_AUTH_REFUSED', async () => {
    venue.authStatus = () => 'error';
    const error = errorOf(client.channel('orders'));
    for (let i = 1; i <= 3; i++) {
      await afterStatusCheck(i);
      await advanceWhenSleeping(clock, 1000);
    }
    expect(await error).toMatchObject({ code: 'WS_AUTH_REFUSED', details: expect.objectContaining({ attempts: 4 }) });
    expect(venue.sent('auth_v2')).toHaveLength(4);
  });

  it('treats a missing auth reply as lost, not refused: a new auth_v2 with a fresh nonce goes at once after the 1 s reply timeout, with no status check', async () => {
    venue.respond = (seen) => seen.frame.method === 'auth_v2' && venue.sent('auth_v2').length === 1;
    subscriptions.push(client.channel('orders').subscribe());
    await venue.frameWith('auth_v2');
    await advanceWhenSleeping(clock, 1_000);
    await venue.frameWith('subscribe', 'orders');
    expect(venue.sent('auth_v2')).toHaveLength(2);
    expect(auth.nonceFetchedAt).toEqual([0, 1_000]);
    expect(auth.statusChecks).toBe(0);
  });

  it('never fails the channel on lost replies: after five in a row it backs off and tries again', async () => {
    venue.respond = (seen) => seen.frame.method === 'auth_v2' && venue.sent('auth_v2').length <= 5;
    const errors: unknown[] = [];
    subscriptions.push(client.channel('orders').subscribe({ error: (e: unknown) => errors.push(e) }));
    for (let i = 1; i <= 5; i++) {
      while (venue.sent('auth_v2').length < i) await new Promise((r) => setTimeout(r, 1));
      await advanceWhenSleeping(clock, 1_000);
    }
    // The fifth lost reply ends this round: a transient failure, retried after a backoff of at most 1 s.
    await advanceWhenSleeping(clock, 1_000);
    await venue.frameWith('subscribe', 'orders');
    expect(venue.sent('auth_v2')).toHaveLength(6);
    expect(errors).toEqual([]);
    expect(client.metrics.authRetries).toBe(1);
  });

  it('needs an authenticator for private channels', async () => {
    const bare = new VenueWsClient({ url: venue.url, knownMarketIds: async () => [1], clock, staleAfterBlocks: 0 });
    try {
      await expect(firstValueFrom(bare.channel('orders').pipe(take(1), toArray()))).rejects.toMatchObject({
        code: 'WS_NO_AUTHENTICATOR',
      });
    } finally {
      await bare.close();
    }
  });
});
