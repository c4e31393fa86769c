import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { privateKeySigner } from '../../src/protocol/digestSigner.js';
import { signTypedStruct } from '../../src/protocol/typedSignatures.js';
import { FrameRecorder, isAck, isAuthReply, isError, settle, startWsSim, type WsSim } from './simWsHarness.js';

const wallet = privateKeySigner('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const sessionKey = privateKeySigner('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba');

let sim: WsSim;
let client: FrameRecorder;

beforeEach(async () => {
  sim = await startWsSim({ inboundFramesPerSecond: 1_000 });
  sim.chain.signers.activate(wallet.address, sessionKey.address);
  client = await FrameRecorder.connect(sim.url);
});

afterEach(async () => {
  expect(client.schemaFailures).toEqual([]);
  client.close();
  await sim.close();
});

/** The frame a working client sends: RegisterV2 by the session key over a server nonce, no expiration. */
async function authFrame(options: { nonce?: string; key?: typeof sessionKey } = {}) {
  const nonce = options.nonce ?? sim.chain.issueLoginNonce(wallet.address);
  const message = 'WebSocket Authentication';
  const signature = await signTypedStruct(sim.ctx.signingContext, options.key ?? sessionKey, 'RegisterV2', {
    signer: sessionKey.address,
    message,
    nonce: BigInt(nonce),
  });
  return {
    method: 'auth_v2',
    params: { account: wallet.address, signer: sessionKey.address, message, nonce, signature },
  };
}

describe('auth_v2', () => {
  it('succeeds with the session key over a server nonce and unlocks private channels', async () => {
    const reply = await client.request(await authFrame(), isAuthReply);
    expect(reply).toEqual({
      method: 'auth_v2',
      status: 'success',
      data: { account: wallet.address, signer: sessionKey.address },
    });
    for (const channel of ['orders', 'positions', 'fills', 'account']) {
      const ack = await client.request(
        { method: 'subscribe', params: { channel } },
        (f) => isAck(channel)(f) || isError(f),
      );
      expect(ack).toMatchObject({ type: 'subscribed', status: 'success' });
    }
  });

  it('a private subscription naming only unknown markets sends no snapshot and never delivers', async () => {
    await client.request(await authFrame(), isAuthReply);
    await client.request({ method: 'subscribe', params: { channel: 'orders', market_ids: [999] } }, isAck('orders'));
    await client.request(
      { method: 'subscribe', params: { channel: 'positions', market_ids: [1] } },
      isAck('positions'),
    );
    sim.deposit(wallet.address);
    sim.place(wallet.address, { side: 0, price_ticks: 600_000 });
    await settle(client);
    expect(client.ofChannel('orders')).toEqual([]);
    expect(client.ofChannel('positions').map((f) => f['type'])).toEqual(['snapshot']);
  });

  it('fails for a signature by another key, and private channels stay closed', async () => {
    const reply = await client.request(await authFrame({ key: wallet }), isAuthReply);
    expect(reply['status']).toBe('error');
    expect(reply).toMatchObject({
      code: 'Unauthenticated',
      message: expect.stringMatching(/^Unauthenticated: invalid signature: RegisterV2 does not recover to signer/),
    });
    // The venue's refusal: the ack frame with status error (venue-wire.md §3).
    const refusal = await client.request({ method: 'subscribe', params: { channel: 'orders' } }, isAck('orders'));
    expect(refusal).toMatchObject({ status: 'error', message: 'authentication required for orders channel' });
  });

  it('fails when a nonce is reused', async () => {
    const frame = await authFrame();
    expect((await client.request(frame, isAuthReply))['status']).toBe('success');
    const other = await FrameRecorder.connect(sim.url);
    try {
      const reply = await other.request(frame, isAuthReply);
      expect(reply['status']).toBe('error');
      expect(reply).toMatchObject({
        code: 'Unauthenticated',
        message: expect.stringMatching(/^Unauthenticated: nonce unknown or already used/),
      });
    } finally {
      other.close();
    }
  });

  it('fails for a revoked signer', async () => {
    sim.chain.signers.revoke(wallet.address, sessionKey.address);
    const reply = await client.request(await authFrame(), isAuthReply);
    expect(reply).toMatchObject({
      method: 'auth_v2',
      status: 'error',
      code: 'Unauthenticated',
      message: 'Unauthenticated: signer not active for account (status 3)',
    });
  });

  it('refuses makers other than the authenticated account', async () => {
    await client.request(await authFrame(), isAuthReply);
    const error = await client.request(
      { method: 'subscribe', params: { channel: 'account', makers: ['0x000000000000000000000000000000000000dEaD'] } },
      isAck('account'),
    );
    expect(error).toMatchObject({
      status: 'error',
      message: 'PermissionDenied: makers must be the authenticated account for account channel',
      channel: 'account',
    });
    const ack = await client.request(
      { method: 'subscribe', params: { channel: 'account', makers: [wallet.address] } },
      isAck('account'),
    );
    // The account channel is not per market: whatever was asked, every market applies.
    expect(ack['data']).toEqual({ market_ids: [1, 2, 3, 4] });
    expect(ack['message']).toBe('subscribed to account for all markets');
  });

  it('a failed re-auth keeps the earlier authentication', async () => {
    await client.request(await authFrame(), isAuthReply);
    const failed = await client.request(await authFrame({ key: wallet }), isAuthReply);
    expect(failed['status']).toBe('error');
    const ack = await client.request(
      { method: 'subscribe', params: { channel: 'fills' } },
      (f) => isAck('fills')(f) || isError(f),
    );
    expect(ack).toMatchObject({ type: 'subscribed', status: 'success' });
  });
});

describe('auth (JWT)', () => {
  it('succeeds with an access token the chain issued and fails with a forged one', async () => {
    const { access_token } = sim.chain.jwt.issue(wallet.address, sim.clock.now());
    const bad = await client.request(
      { method: 'auth', params: { token: `${access_token.slice(0, -2)}xx` } },
      isAuthReply,
    );
    expect(bad).toMatchObject({
      method: 'auth',
      status: 'error',
      code: 'Unauthenticated',
      message: 'Unauthenticated: invalid token',
    });
    const good = await client.request({ method: 'auth', params: { token: access_token } }, isAuthReply);
    expect(good).toEqual({ method: 'auth', status: 'success', data: { account: wallet.address } });
    const ack = await client.request({ method: 'subscribe', params: { channel: 'positions' } }, isAck('positions'));
    expect(ack['status']).toBe('success');
  });
});

describe('malformed auth frames', () => {
  it('get an InvalidArgument auth reply (not a bare error frame), and leave the connection unauthenticated', async () => {
    const good = await authFrame();
    const cases: [unknown, 'auth_v2' | 'auth', RegExp][] = [
      [{ method: 'auth_v2' }, 'auth_v2', /^InvalidArgument: malformed auth_v2 frame at params: /],
      [
        { method: 'auth_v2', params: { ...good.params, signer: 'not-an-address' } },
        'auth_v2',
        /^InvalidArgument: malformed auth_v2 frame at params\.signer: a 0x-prefixed 20-byte address/,
      ],
      [
        { method: 'auth_v2', params: { ...good.params, nonce: 42 } },
        'auth_v2',
        /^InvalidArgument: malformed auth_v2 frame at params\.nonce: /,
      ],
      [
        { method: 'auth_v2', params: { ...good.params, nonce: `0x1${'0'.repeat(64)}` } },
        'auth_v2',
        /^InvalidArgument: invalid auth_v2 params: /,
      ],
      [
        { method: 'auth_v2', params: { ...good.params, signature: '0xdeadbeef' } },
        'auth_v2',
        /^InvalidArgument: invalid signature: expected 0x hex of 65 bytes/,
      ],
      [{ method: 'auth', params: {} }, 'auth', /^InvalidArgument: malformed auth frame at params\.token: /],
      [{ method: 'auth', params: { token: 5 } }, 'auth', /^InvalidArgument: malformed auth frame at params\.token: /],
    ];
    for (const [frame, method, message] of cases) {
      const reply = await client.request(frame, isAuthReply);
      expect(reply).toMatchObject({
        method,
        status: 'error',
        code: 'InvalidArgument',
        message: expect.stringMatching(message),
      });
      expect(reply['type']).toBeUndefined();
      expect(JSON.stringify(reply)).not.toContain('deadbeef');
    }
    // The venue's refusal: the ack frame with status error (venue-wire.md §3).
    const refusal = await client.request({ method: 'subscribe', params: { channel: 'orders' } }, isAck('orders'));
    expect(refusal).toMatchObject({ status: 'error', message: 'authentication required for orders channel' });
    // The malformed frames burnt nothing: the nonce of the well-formed frame still works.
    expect((await client.request(good, isAuthReply))['status']).toBe('success');
  });
});
