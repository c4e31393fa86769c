import { afterEach, describe, expect, it } from 'vitest';
import type { ClientOptions } from 'ws';
import { ManualClock } from '../../src/core/clock.js';
import { compareDecimals } from '../../src/core/decimal.js';
import { privateKeySigner } from '../../src/protocol/digestSigner.js';
import { orderbookChecksum } from '../../src/protocol/orderbookChecksum.js';
import { signTypedStruct } from '../../src/protocol/typedSignatures.js';
import { FrameRecorder, isAck, isAuthReply, settle, startWsSim, type WsSim } from './simWsHarness.js';

const wallet = privateKeySigner('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const sessionKey = privateKeySigner('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba');

type Level = { price: string; quantity: string };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Polls real I/O until `check` holds (the server discards a frame once it has read the request). */
async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`condition not met in time: ${check.toString()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function sim(options: Parameters<typeof startWsSim>[0] = {}): Promise<WsSim> {
  const started = await startWsSim({ inboundFramesPerSecond: 1_000, ...options });
  cleanups.push(() => started.close());
  return started;
}

async function client(url: string, options: ClientOptions = {}): Promise<FrameRecorder> {
  const connected = await FrameRecorder.connect(url, options);
  cleanups.push(() => {
    expect(connected.schemaFailures).toEqual([]);
    connected.close();
  });
  return connected;
}

async function authenticate(s: WsSim, c: FrameRecorder): Promise<void> {
  s.chain.signers.activate(wallet.address, sessionKey.address);
  const nonce = s.chain.issueLoginNonce(wallet.address);
  const message = 'WebSocket Authentication';
  const signature = await signTypedStruct(s.ctx.signingContext, sessionKey, 'RegisterV2', {
    signer: sessionKey.address,
    message,
    nonce: BigInt(nonce),
  });
  const reply = await c.request(
    { method: 'auth_v2', params: { account: wallet.address, signer: sessionKey.address, message, nonce, signature } },
    isAuthReply,
  );
  expect(reply['status']).toBe('success');
}

describe('drop controls', () => {
  it('dropAll ends every connection abruptly and the server keeps accepting new ones', async () => {
    const s = await sim();
    const a = await client(s.url);
    const b = await client(s.url);
    await settle(a);
    await settle(b);
    expect(s.ws.connectionCount()).toBe(2);
    expect(s.ws.dropConnections()).toBe(2);
    const [closedA, closedB] = await Promise.all([a.closed, b.closed]);
    expect(closedA.code).toBe(1006); // no close frame: as on a network drop
    expect(closedB.code).toBe(1006);
    expect(s.ws.connectionCount()).toBe(0);
    const again = await client(s.url);
    expect(
      (await again.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle')))['status'],
    ).toBe('success');
  });

  it('dropAccount ends only the connections authenticated as that account', async () => {
    const s = await sim();
    const authed = await client(s.url);
    const anonymous = await client(s.url);
    await authenticate(s, authed);
    await settle(anonymous);
    expect(s.ws.dropAccount(wallet.address.toLowerCase())).toBe(1);
    await authed.closed;
    await settle(anonymous);
    expect(s.ws.connectionCount()).toBe(1);
  });

  it('a revoked session key closes its authenticated connections with 4001', async () => {
    const s = await sim();
    const authed = await client(s.url);
    await authenticate(s, authed);
    s.chain.signers.revoke(wallet.address, sessionKey.address);
    s.emit({
      type: 'signer',
      account: wallet.address,
      signer: sessionKey.address,
      status: 3,
      ...s.chain.blocks.stampAction(s.clock.now()),
    });
    const closed = await authed.closed;
    expect(closed).toEqual({ code: 4001, reason: 'session key revoked' });
  });
});

describe('cleanup', () => {
  it('a client that closes leaves no connection and no account pin behind', async () => {
    const s = await sim();
    const c = await client(s.url);
    await authenticate(s, c);
    await c.request({ method: 'subscribe', params: { channel: 'orders' } }, isAck('orders'));
    expect(s.ws.connectionCount()).toBe(1);
    c.socket.close(1000);
    await c.closed;
    // The server sees the close a moment after the client does.
    for (let i = 0; i < 100 && s.ws.connectionCount() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(s.ws.connectionCount()).toBe(0);
    expect(s.ws.dropAccount(wallet.address)).toBe(0);
  });
});

describe('stall control', () => {
  it('sends nothing for the stall, closes nothing, then streams again', async () => {
    const timers = new ManualClock();
    const s = await sim({ timers });
    const c = await client(s.url);
    await c.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle'));
    s.mineBlock();
    await c.next((f) => f['channel'] === 'oracle' && f['type'] === 'update');
    s.ws.stall(5_000);
    const before = c.frames.length;
    s.mineBlock();
    s.mineBlock();
    c.send({ method: 'subscribe', params: { channel: 'trades' } }); // not even replies go out
    // Two blocks and the reply, discarded rather than sent: the last count the client's frame.
    await until(() => s.ws.discardedFrameCount() === 3);
    expect(c.frames.length).toBe(before);
    expect(s.ws.connectionCount()).toBe(1);
    await timers.advance(5_000);
    const block = s.mineBlock();
    const after = await c.next((f) => f['channel'] === 'oracle' && f['block_number'] === block, before);
    expect(after['type']).toBe('update');
    expect(c.frames.slice(before).filter((f) => f['channel'] === 'oracle')).toHaveLength(1);
  });

  it('setStalled holds until released', async () => {
    const s = await sim();
    const c = await client(s.url);
    await c.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle'));
    s.ws.setStalled(true);
    s.mineBlock();
    await until(() => s.ws.discardedFrameCount() === 1);
    s.ws.setStalled(false);
    const block = s.mineBlock();
    await c.next((f) => f['channel'] === 'oracle' && f['type'] === 'update');
    expect(c.ofChannel('oracle').map((f) => f['block_number'])).toEqual([block]);
  });
});

describe('stall and the orderbook checksum', () => {
  it('updates lost in a stall make the next checksum fail, and a resubscribe gives a matching snapshot', async () => {
    const s = await sim();
    const c = await client(s.url);
    s.deposit(wallet.address);
    s.place(wallet.address, { side: 0, price_ticks: 649_000 });
    await c.request({ method: 'subscribe', params: { channel: 'orderbook', market_ids: [1] } }, isAck('orderbook'));
    const levels = new Map<string, string>();
    const apply = (frame: Record<string, unknown>): boolean => {
      const data = frame['data'] as { bids: Level[]; asks: Level[] };
      if (frame['type'] === 'snapshot') levels.clear();
      for (const level of data.bids)
        if (level.quantity === '0') levels.delete(level.price);
        else levels.set(level.price, level.quantity);
      const bids = [...levels].map(([price, quantity]) => ({ price, quantity }));
      bids.sort((a, b) => compareDecimals(b.price, a.price));
      // A snapshot carries no checksum (venue-wire.md §3); an update's sits at the envelope.
      return frame['type'] === 'snapshot' || frame['checksum'] === orderbookChecksum(bids, []);
    };
    expect(apply(await c.next((f) => f['channel'] === 'orderbook' && f['type'] === 'snapshot'))).toBe(true);
    s.ws.setStalled(true);
    s.place(wallet.address, { side: 0, price_ticks: 648_000 }); // lost
    await until(() => s.ws.discardedFrameCount() >= 1);
    s.ws.setStalled(false);
    const from = c.frames.length;
    s.place(wallet.address, { side: 0, price_ticks: 647_000 });
    expect(apply(await c.next((f) => f['channel'] === 'orderbook' && f['type'] === 'update', from))).toBe(false);
    const again = c.frames.length;
    await c.request({ method: 'subscribe', params: { channel: 'orderbook', market_ids: [1] } }, isAck('orderbook'));
    const snapshot = await c.next((f) => f['channel'] === 'orderbook' && f['type'] === 'snapshot', again);
    expect(apply(snapshot)).toBe(true);
    expect(levels.size).toBe(3);
    const after = c.frames.length;
    s.place(wallet.address, { side: 0, price_ticks: 646_000 });
    expect(apply(await c.next((f) => f['channel'] === 'orderbook' && f['type'] === 'update', after))).toBe(true);
  });
});

describe('protocol pings', () => {
  it('are sent at the interval; a client that never answers is dropped, one that does is kept', async () => {
    const timers = new ManualClock();
    const s = await sim({ timers, pingIntervalMs: 1_000 });
    const live = await client(s.url);
    const dead = await client(s.url, { autoPong: false });
    let pings = 0;
    dead.socket.on('ping', () => pings++);
    await settle(live);
    await settle(dead);
    await timers.advance(1_000);
    await settle(live); // the pong travels back before the next round
    await settle(dead);
    expect(pings).toBe(1);
    await timers.advance(1_000);
    const closed = await dead.closed;
    expect(closed.code).toBe(1006);
    await settle(live);
    expect(s.ws.connectionCount()).toBe(1);
  });
});

describe('slow clients', () => {
  it('a client that stops reading is dropped once its unsent bytes pass the bound', async () => {
    const s = await sim({ maxBufferedBytes: 64 * 1024 });
    const slow = await client(s.url);
    await slow.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle'));
    const raw = (slow.socket as unknown as { _socket: import('node:net').Socket })._socket;
    raw.pause();
    let blocks = 0;
    while (s.ws.connectionCount() > 0 && blocks < 200_000) {
      s.mineBlock();
      blocks++;
      if (blocks % 500 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(s.ws.connectionCount()).toBe(0);
    raw.resume();
    const closed = await slow.closed;
    expect([4008, 1006]).toContain(closed.code);
  });
});
