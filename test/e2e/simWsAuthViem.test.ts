import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newKey, SimRestHarness } from './simRestHarness.js';
import { FrameRecorder, isAck, isAuthReply, isError } from './simWsHarness.js';
import { authV2Frame, login } from './support/viemAuth.js';

/**
 * WebSocket authentication on the real server (`startSim`), every signature made by viem: auth_v2
 * over RegisterV2 with the domain from GET /v1/auth/eip712-domain and a nonce from
 * GET /v1/auth/nonce, and the JWT `auth` method with a token from POST /v1/auth/login.
 */
let h: SimRestHarness;
const clients: FrameRecorder[] = [];

beforeAll(async () => {
  h = await SimRestHarness.start({});
});

afterEach(() => {
  for (const c of clients.splice(0)) {
    expect(c.schemaFailures).toEqual([]);
    c.close();
  }
});

afterAll(async () => {
  await h.close();
});

async function connect(): Promise<FrameRecorder> {
  const c = await FrameRecorder.connect(h.sim.wsUrl);
  clients.push(c);
  return c;
}

type Trader = { account: PrivateKeyAccount; signer: PrivateKeyAccount };

/** The account channel's snapshot names the account the connection is pinned to. */
async function pinnedAccount(c: FrameRecorder): Promise<string> {
  const from = c.frames.length;
  await c.request({ method: 'subscribe', params: { channel: 'account' } }, isAck('account'));
  const snapshot = await c.next((f) => f['channel'] === 'account' && f['type'] === 'snapshot', from);
  return (snapshot['data'] as { account: string }).account.toLowerCase();
}

async function refusesPrivateChannels(c: FrameRecorder): Promise<void> {
  const error = await c.request(
    { method: 'subscribe', params: { channel: 'orders' } },
    (f) => isError(f) || isAck('orders')(f),
  );
  // The venue's refusal: the ack frame with status error (venue-wire.md §3).
  expect(error).toMatchObject({
    type: 'subscribed',
    status: 'error',
    message: 'authentication required for orders channel',
  });
}

describe('auth_v2 signed by viem', () => {
  it('succeeds with the session key over a server nonce and pins the connection to the account', async () => {
    const alice: Trader = await h.trader();
    const c = await connect();
    const reply = await c.request(await authV2Frame(h, alice), isAuthReply);
    expect(reply).toEqual({
      method: 'auth_v2',
      status: 'success',
      data: { account: alice.account.address, signer: alice.signer.address },
    });
    expect(await pinnedAccount(c)).toBe(alice.account.address.toLowerCase());
  });

  it('answers an error for RegisterV2 signed by another key (the wallet key, or a stranger)', async () => {
    const bob: Trader = await h.trader();
    const c = await connect();
    for (const signedBy of [bob.account, newKey()]) {
      const reply = await c.request(await authV2Frame(h, bob, { signedBy }), isAuthReply);
      expect(reply).toMatchObject({
        method: 'auth_v2',
        status: 'error',
        code: 'Unauthenticated',
        message: expect.stringMatching(/^Unauthenticated: invalid signature: RegisterV2 does not recover to signer/),
      });
    }
    await refusesPrivateChannels(c);
  });

  it('answers an error for a server nonce used once already, on this connection or another', async () => {
    const carol: Trader = await h.trader();
    const frame = await authV2Frame(h, carol);
    const first = await connect();
    expect((await first.request(frame, isAuthReply))['status']).toBe('success');
    for (const c of [first, await connect()]) {
      const reply = await c.request(frame, isAuthReply);
      expect(reply).toMatchObject({
        method: 'auth_v2',
        status: 'error',
        code: 'Unauthenticated',
        message: expect.stringMatching(/^Unauthenticated: nonce unknown or already used/),
      });
    }
    // A fresh nonce from GET /v1/auth/nonce works again.
    const again = await connect();
    expect((await again.request(await authV2Frame(h, carol), isAuthReply))['status']).toBe('success');
  });

  it('answers an error once REST has revoked the session key, and a newly registered key works', async () => {
    const dave: Trader = await h.trader();
    expect((await h.revokeSigner(dave.account, dave.signer.address, 0n, 1)).status).toBe(200);
    const c = await connect();
    const reply = await c.request(await authV2Frame(h, dave), isAuthReply);
    expect(reply).toEqual({
      method: 'auth_v2',
      status: 'error',
      code: 'Unauthenticated',
      message: 'Unauthenticated: signer not active for account (status 3)',
      data: { account: dave.account.address, signer: dave.signer.address },
    });
    await refusesPrivateChannels(c);
    const replacement = newKey();
    expect((await h.registerSigner(dave.account, replacement, 0n, 2)).status).toBe(200);
    const ok = await c.request(await authV2Frame(h, { account: dave.account, signer: replacement }), isAuthReply);
    expect(ok).toMatchObject({ status: 'success', data: { signer: replacement.address } });
  });
});

describe('auth (JWT) with a token from REST login', () => {
  it('succeeds with the access token of a Login signed by the account key; a tampered token is refused', async () => {
    const erin: Trader = await h.trader();
    const { access_token } = await login(h, erin.account);
    const c = await connect();
    const tampered = `${access_token.slice(0, -4)}${access_token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const bad = await c.request({ method: 'auth', params: { token: tampered } }, isAuthReply);
    expect(bad).toEqual({
      method: 'auth',
      status: 'error',
      code: 'Unauthenticated',
      message: 'Unauthenticated: invalid token',
    });
    await refusesPrivateChannels(c);
    const good = await c.request({ method: 'auth', params: { token: access_token } }, isAuthReply);
    expect(good).toEqual({ method: 'auth', status: 'success', data: { account: erin.account.address } });
    expect(await pinnedAccount(c)).toBe(erin.account.address.toLowerCase());
  });
});
