import { firstValueFrom, timeout, type Subscription } from 'rxjs';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { fastPrivateKeySigner } from '../../src/protocol/nativeSigner.js';
import { signTypedStruct } from '../../src/protocol/typedSignatures.js';
import { startSim, type RunningSim } from '../../src/sim/index.js';
import { OrderBookFeed } from '../../src/venue/orderbook/orderBookFeed.js';
import { AUTH_RETRY_DELAY_MS, type Hex, type WsAuthenticator } from '../../src/venue/ws/authenticateWs.js';
import { SignerNotActiveError, VenueWsError } from '../../src/venue/ws/venueWsError.js';
import { VenueWsClient, type ConnectionState, type VenueWsClientOptions } from '../../src/venue/ws/venueWsClient.js';
import { readMarkets } from '../../src/venue/venueInfo.js';
import { wsAuthenticatorFromRest } from '../../src/venue/ws/wsAuthenticatorFromRest.js';
import { JumpClock } from './support/jumpClock.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';

/**
 * The WebSocket client against the simulator's faults, over real sockets: acks that do not match
 * the request, auth_v2 refusals (retried, then given up), a signer revoked mid-connection, and a
 * stalled stream that the staleness watchdog reconnects.
 */
const WAIT_MS = 10_000;
const BLOCK_MS = 50;

let sim: RunningSim;

beforeAll(async () => {
  sim = await startSim({ blockMs: BLOCK_MS, seed: 11 });
});

afterEach(() => {
  sim.controls.setSubscribeFault(undefined);
  sim.controls.stallStreams(false);
});

afterAll(async () => {
  await sim.close();
});

/** Polls (real time: this is a real simulator) until the condition holds or WAIT_MS passes. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The usual REST-backed authenticator, recording what the client asks of it. The first `forged`
 * signatures come from a key that is not the signer, so the simulator refuses them for real.
 */
function recordingAuthenticator(who: SimAccount, forged = 0) {
  const real = wsAuthenticatorFromRest({
    rest: who.rest,
    context: who.context,
    account: who.account,
    signer: who.signer,
  });
  const wrongKey = fastPrivateKeySigner(generatePrivateKey());
  const impostor = wsAuthenticatorFromRest({
    rest: who.rest,
    context: who.context,
    account: who.account,
    // Claims to be the session key, signs with another.
    signer: { address: who.signer.address, signDigest: (digest) => wrongKey.signDigest(digest) },
  });
  // nonceReads counts calls as they start (before the REST answer), so a retry shows at once.
  const record = { nonces: [] as Hex[], nonceReads: 0, signedAt: [] as number[], statusChecks: 0 };
  const authenticator: WsAuthenticator = {
    account: real.account,
    signer: real.signer,
    fetchNonce: async () => {
      record.nonceReads++;
      const nonce = await real.fetchNonce();
      record.nonces.push(nonce);
      return nonce;
    },
    sign: (nonce) => {
      record.signedAt.push(Date.now());
      return record.signedAt.length <= forged ? impostor.sign(nonce) : real.sign(nonce);
    },
    signerStatus: () => {
      record.statusChecks++;
      return real.signerStatus();
    },
  };
  return { authenticator, record };
}

/** What one test opened, closed when that test finishes (the auth tests run concurrently). */
type Owner = Pick<TestContext, 'onTestFinished'>;

function clientFor(
  own: Owner,
  who: SimAccount,
  authenticator?: WsAuthenticator,
  options: Partial<VenueWsClientOptions> = {},
): VenueWsClient {
  const client = new VenueWsClient({
    url: sim.wsUrl,
    knownMarketIds: async () => (await readMarkets(who.rest)).map((market) => Number(market.market_id)),
    ...(authenticator === undefined ? {} : { authenticator }),
    blockMs: BLOCK_MS,
    staleAfterBlocks: 40,
    reconnect: { baseMs: 50, maxMs: 200 },
    ...options,
  });
  own.onTestFinished(() => client.close());
  return client;
}

/** Every connection state with the time it was reported. */
function recordStates(own: Owner, client: VenueWsClient): { at: number; state: ConnectionState }[] {
  const states: { at: number; state: ConnectionState }[] = [];
  keep(
    own,
    client.connectionState$.subscribe((state) => states.push({ at: Date.now(), state })),
  );
  return states;
}

function keep(own: Owner, subscription: Subscription): void {
  own.onTestFinished(() => subscription.unsubscribe());
}

/** The first error of a stream, and what it delivered before. */
function errorOf<T>(
  own: Owner,
  source: { subscribe: (o: { next: (m: T) => void; error: (e: unknown) => void }) => Subscription },
): { error: Promise<unknown>; delivered: T[] } {
  const delivered: T[] = [];
  const error = new Promise<unknown>((resolve) =>
    keep(own, source.subscribe({ next: (m) => delivered.push(m), error: resolve })),
  );
  return { error, delivered };
}

function expectGapsAboutRetryDelay(times: readonly number[]): void {
  for (let i = 1; i < times.length; i++) {
    const gap = times[i]! - times[i - 1]!;
    expect(gap).toBeGreaterThanOrEqual(AUTH_RETRY_DELAY_MS - 10);
    expect(gap).toBeLessThan(AUTH_RETRY_DELAY_MS + 900);
  }
}

async function revokeSigner(who: SimAccount): Promise<void> {
  const nonceAnchor = (await who.rest.nonceState(who.account)).nonce_anchor + 1n;
  const signature = await signTypedStruct(who.context, who.accountSigner, 'RevokeSigner', {
    account: who.account,
    signer: who.signer.address,
    nonceAnchor,
    nonceBitmap: 0,
  });
  const revoked = await who.rest.revokeSigner({
    account: who.account,
    signer: who.signer.address,
    nonce_anchor: nonceAnchor.toString(),
    nonce_bitmap_index: 0,
    account_signature: signature,
  });
  expect(revoked.success).toBe(true);
}

describe('subscribe acks are checked against the request (simulator fault setSubscribeFault)', () => {
  it('errors the stream when the ack applied other market ids than requested; other streams go on', async (own) => {
    const who = await fundedAccount(sim, { register: false });
    const client = clientFor(own, who);
    sim.controls.setSubscribeFault({ channel: 'orderbook', applied: [2] });
    const book = errorOf(own, client.channel('orderbook', { marketIds: [1] }));
    const error = await book.error;
    expect(error).toBeInstanceOf(VenueWsError);
    expect(error).toMatchObject({
      code: 'WS_FILTER_MISMATCH',
      details: { channel: 'orderbook', requested: [1], applied: [2] },
    });
    expect((error as VenueWsError).message).toBe('orderbook: the server applied markets [2], requested [1]');
    expect(book.delivered).toEqual([]);
    // Filtered subscribes of other channels are untouched by this fault, and still deliver.
    const oracle = await firstValueFrom(client.channel('oracle', { marketIds: [1] }).pipe(timeout(WAIT_MS)));
    expect([...oracle.prices.keys()]).toEqual([1]);

    sim.controls.setSubscribeFault(undefined);
    const again = await firstValueFrom(client.channel('orderbook', { marketIds: [1] }).pipe(timeout(WAIT_MS)));
    expect(again.marketId).toBe(1);
  });

  it('errors the stream when the ack applied all markets although a filter was asked', async (own) => {
    const who = await fundedAccount(sim, { register: false });
    const client = clientFor(own, who);
    sim.controls.setSubscribeFault({ applied: 'all' });
    const trades = errorOf(own, client.channel('trades', { marketIds: [1] }));
    const error = await trades.error;
    expect(error).toMatchObject({
      code: 'WS_FILTER_IGNORED',
      details: { channel: 'trades', requested: [1], applied: 'all' },
    });
    expect((error as VenueWsError).hints[0]).toMatch(/market_ids parameter did not reach the server/);
    expect(trades.delivered).toEqual([]);
    // An all-markets request is not a filter: the fault leaves it (and the oracle heartbeat) alone.
    const oracle = await firstValueFrom(client.channel('oracle').pipe(timeout(WAIT_MS)));
    expect(oracle.prices.size).toBeGreaterThan(1);
    expect(client.metrics.reconnects).toBe(0);
  });
});

// Concurrent: the two tests spend most of their time in the 1 s retry delay.
describe.concurrent('auth_v2 against the simulator', () => {
  it('retries a refusal while the signer is Active with a fresh nonce 1 s apart: succeeds on the third try, gives up after three retries', async (own) => {
    const [flakyAccount, hopelessAccount] = await Promise.all([fundedAccount(sim), fundedAccount(sim)]);
    const flaky = recordingAuthenticator(flakyAccount, 2);
    const hopeless = recordingAuthenticator(hopelessAccount, Number.POSITIVE_INFINITY);
    const flakyClient = clientFor(own, flakyAccount, flaky.authenticator);
    const hopelessClient = clientFor(own, hopelessAccount, hopeless.authenticator);
    const states = recordStates(own, flakyClient);
    const refused = errorOf(own, hopelessClient.channel('fills'));

    const account = await firstValueFrom(flakyClient.channel('account').pipe(timeout(WAIT_MS)));
    expect(account.account.balance).toBe('1000');
    expect(flaky.record.nonces).toHaveLength(3);
    expect(new Set(flaky.record.nonces).size).toBe(3);
    for (const nonce of flaky.record.nonces) expect(nonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(flaky.record.statusChecks).toBe(2);
    expectGapsAboutRetryDelay(flaky.record.signedAt);
    expect(states.map((s) => s.state.status)).toEqual(['connecting', 'open', 'authenticated']);

    const error = await refused.error;
    expect(error).toBeInstanceOf(VenueWsError);
    expect(error).not.toBeInstanceOf(SignerNotActiveError);
    expect(error).toMatchObject({
      code: 'WS_AUTH_REFUSED',
      details: { attempts: 4, signer: hopelessAccount.signer.address },
    });
    expect((error as VenueWsError).details['serverMessage']).toMatch(/does not recover to signer/);
    expect(hopeless.record.nonces).toHaveLength(4);
    expect(new Set(hopeless.record.nonces).size).toBe(4);
    expect(hopeless.record.statusChecks).toBe(4);
    expectGapsAboutRetryDelay(hopeless.record.signedAt);
    expect(refused.delivered).toEqual([]);
  });

  it('stops with SignerNotActive when the signer is revoked while connected: 4001, one refused re-auth, no retries', async (own) => {
    const who = await fundedAccount(sim);
    const { authenticator, record } = recordingAuthenticator(who);
    // Real time, moved past the retry delay at the end rather than waited for.
    const clock = new JumpClock();
    const client = clientFor(own, who, authenticator, { clock });
    const states = recordStates(own, client);
    const account = errorOf(own, client.channel('account'));
    const fills = errorOf(own, client.channel('fills'));
    let oracleFrames = 0;
    keep(
      own,
      client.channel('oracle').subscribe(() => oracleFrames++),
    );
    await until(() => account.delivered.length > 0);
    expect(states.at(-1)?.state.status).toBe('authenticated');

    await revokeSigner(who);
    const error = await account.error;
    expect(error).toBeInstanceOf(SignerNotActiveError);
    expect(error).toMatchObject({
      code: 'WS_SIGNER_NOT_ACTIVE',
      status: 3,
      signer: who.signer.address,
      account: who.account,
    });
    expect((error as SignerNotActiveError).hints[0]).toMatch(/revoked: register a new signer/);
    expect(await fills.error).toBe(error);
    const dropped = states.find((s) => s.state.status === 'reconnecting');
    expect(dropped?.state.reason).toBe('closed by server (code 4001: session key revoked)');
    expect(record.nonces).toHaveLength(2);
    expect(record.statusChecks).toBe(1);

    // The reconnect comes, unauthenticated; with the clock past a retry delay (a retry would have
    // woken and asked for a nonce by the time `jump` returns) nothing more is attempted, while the
    // public stream goes on.
    await until(() => client.metrics.reconnects === 1 && states.at(-1)?.state.status === 'open');
    await clock.jump(AUTH_RETRY_DELAY_MS + 200);
    expect(record.nonceReads).toBe(2);
    expect(record.statusChecks).toBe(1);
    const before = oracleFrames;
    await until(() => oracleFrames > before);
    expect(record.nonces).toHaveLength(2);
    expect(client.metrics.reconnects).toBe(1);
    expect(states.at(-1)?.state.status).toBe('open');
  });
});

describe('staleness against the simulator (stallStreams)', () => {
  it('reconnects after the configured block times without an oracle message; every stream delivers again once unstalled', async (own) => {
    // 20 blocks (1 s): short enough to wait for, long enough that the resumed connection is not
    // itself called stale on a loaded machine before its first frames arrive (6 blocks, 300 ms, was).
    const staleAfterBlocks = 20;
    const staleMs = staleAfterBlocks * BLOCK_MS;
    const who = await fundedAccount(sim);
    const { authenticator } = recordingAuthenticator(who);
    // A reply lost to the stall counts as a refusal after authReplyTimeoutMs.
    const client = clientFor(own, who, authenticator, { staleAfterBlocks, authReplyTimeoutMs: 300 });
    const states = recordStates(own, client);
    const feed = new OrderBookFeed(client);
    const seen = { oracle: 0, book: 0, account: 0 };
    const errors: unknown[] = [];
    const count = (key: keyof typeof seen) => ({
      next: () => {
        seen[key]++;
      },
      error: (e: unknown) => errors.push(e),
      complete: () => errors.push(`${key} completed`),
    });
    keep(own, client.channel('oracle').subscribe(count('oracle')));
    keep(own, feed.book$(1).subscribe(count('book')));
    keep(own, client.channel('account').subscribe(count('account')));
    await until(() => Object.values(seen).every((n) => n > 0) && states.at(-1)?.state.status === 'authenticated');

    const stalledAt = Date.now();
    sim.controls.stallStreams(true);
    await until(() => states.some((s) => s.state.status === 'reconnecting'));
    const stale = states.find((s) => s.state.status === 'reconnecting')!;
    expect(stale.state.reason).toMatch(new RegExp(`^stale: no oracle message for \\d+ ms \\(limit ${staleMs} ms\\)$`));
    // The last oracle frame came at most about a block before the stall.
    expect(stale.at - stalledAt).toBeGreaterThanOrEqual(staleMs - BLOCK_MS - 10);
    expect(stale.at - stalledAt).toBeLessThan(staleMs + 1000);

    // Still silent: the next connection opens, asks for everything, hears nothing back. Resume
    // while it is live, so its acks, snapshots and auth reply are the frames the stall lost.
    await until(() => states.at(-1)?.state.status === 'open' && states.at(-1)!.state.connections >= 2);
    await sleep(100);
    const reconnects = client.metrics.reconnects;
    for (const key of Object.keys(seen) as (keyof typeof seen)[]) seen[key] = 0;
    sim.controls.stallStreams(false);
    await until(() => Object.values(seen).every((n) => n > 0));
    expect(errors).toEqual([]);
    // Recovered on the resumed connection itself: no further reconnect was needed.
    expect(client.metrics.reconnects).toBe(reconnects);
    expect(states.at(-1)?.state.status).toBe('authenticated');
    expect(states.map((s) => s.state.status)).toContain('reconnecting');
  });
});
