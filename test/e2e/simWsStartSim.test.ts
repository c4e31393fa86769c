import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compareDecimals } from '../../src/core/decimal.js';
import { orderbookChecksum } from '../../src/protocol/orderbookChecksum.js';
import { SimRestHarness, limitOrder } from './simRestHarness.js';
import { FrameRecorder, isAck, isAuthReply, settle } from './simWsHarness.js';
import { authV2Frame } from './support/viemAuth.js';

/**
 * The WebSocket server as `startSim` runs it: real blocks every 50 ms, synthetic makers, REST
 * actions. Signatures here are viem's (independent of the project's signer).
 */
let h: SimRestHarness;
let alice: { account: PrivateKeyAccount; signer: PrivateKeyAccount };
let client: FrameRecorder;

beforeAll(async () => {
  h = await SimRestHarness.start({ blockMs: 50 });
  alice = await h.trader();
  client = await FrameRecorder.connect(h.sim.wsUrl);
});

afterAll(async () => {
  expect(client.schemaFailures).toEqual([]);
  client.close();
  await h.close();
});

async function authV2(
  c: FrameRecorder,
  who: { account: PrivateKeyAccount; signer: PrivateKeyAccount },
): Promise<Record<string, unknown>> {
  return c.request(await authV2Frame(h, who), isAuthReply);
}

type Level = { price: string; quantity: string };

describe('WebSocket on startSim', () => {
  it('oracle: one frame per block, consecutive block numbers', async () => {
    await client.request({ method: 'subscribe', params: { channel: 'oracle', market_ids: [1] } }, isAck('oracle'));
    const first = await client.next((f) => f['channel'] === 'oracle' && f['type'] === 'update');
    const start = first['block_number'] as number;
    await client.next((f) => f['channel'] === 'oracle' && f['block_number'] === start + 3);
    const numbers = client.ofChannel('oracle').map((f) => f['block_number'] as number);
    expect(numbers.slice(numbers.indexOf(start), numbers.indexOf(start) + 4)).toEqual([
      start,
      start + 1,
      start + 2,
      start + 3,
    ]);
    expect(Object.keys((first['data'] as { prices: object }).prices)).toEqual(['1']);
  });

  it('orderbook: the synthetic makers move the book every block and every checksum holds', async () => {
    const from = client.frames.length;
    await client.request(
      { method: 'subscribe', params: { channel: 'orderbook', market_ids: [1] } },
      isAck('orderbook'),
    );
    const bids = new Map<string, string>();
    const asks = new Map<string, string>();
    let checked = 0;
    for (let seen = from; checked < 5;) {
      const frame = await client.next(
        (f) => f['channel'] === 'orderbook' && (f['type'] === 'snapshot' || f['type'] === 'update'),
        seen,
      );
      seen = client.frames.indexOf(frame) + 1;
      const data = frame['data'] as { bids: Level[]; asks: Level[] };
      if (frame['type'] === 'snapshot') {
        bids.clear();
        asks.clear();
      }
      for (const [side, levels] of [
        [bids, data.bids],
        [asks, data.asks],
      ] as const) {
        for (const level of levels)
          if (level.quantity === '0') side.delete(level.price);
          else side.set(level.price, level.quantity);
      }
      const ordered = (m: Map<string, string>, desc: boolean) =>
        [...m]
          .map(([price, quantity]) => ({ price, quantity }))
          .sort((a, b) => compareDecimals(a.price, b.price) * (desc ? -1 : 1));
      // Snapshots carry no checksum; updates carry the whole book's at the envelope (venue-wire.md §3).
      if (frame['type'] === 'update')
        expect(frame['checksum']).toBe(orderbookChecksum(ordered(bids, true), ordered(asks, false)));
      else expect(frame).not.toHaveProperty('checksum');
      checked++;
    }
    expect(bids.size).toBeGreaterThan(0);
    expect(asks.size).toBeGreaterThan(0);
  });

  it('private channels: a REST order that trades reaches orders, fills, positions and account', async () => {
    expect((await authV2(client, alice))['status']).toBe('success');
    for (const channel of ['orders', 'fills', 'positions', 'account']) {
      await client.request({ method: 'subscribe', params: { channel } }, isAck(channel));
    }
    const from = client.frames.length;
    // A buy far through the makers' asks, IOC: alice is the taker.
    const order = limitOrder({ side: 0, price_ticks: 700_000, size_steps: 20, time_in_force: 3 });
    const answer = await h.place(alice.signer, alice.account.address, order, { anchor: 0n, bit: 1 });
    expect(answer.status).toBe(200);
    const fill = await client.next((f) => f['channel'] === 'fills', from);
    expect(fill['data']).toMatchObject({
      market_id: 1,
      side: 0,
      liquidity_indicator: 'TAKER',
      order_id: answer.json['data'].order_id,
    });
    expect(fill['tx_hash']).toBe(answer.json['data'].tx_hash);
    const orders = await client.next((f) => f['channel'] === 'orders' && f['type'] === 'update', from);
    expect(orders['data']).toEqual(
      expect.arrayContaining([expect.objectContaining({ order_id: answer.json['data'].order_id })]),
    );
    const position = await client.next((f) => f['channel'] === 'positions' && f['type'] === 'update', from);
    expect(position['data']).toEqual([expect.objectContaining({ market_id: 1, side: 'BUY', size: '0.0002' })]);
    await client.next((f) => f['channel'] === 'account' && f['type'] === 'update', from);
  });

  it('controls: stallStreams silences without closing, dropWebSockets closes', async () => {
    const watcher = await FrameRecorder.connect(h.sim.wsUrl);
    await watcher.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle'));
    await watcher.next((f) => f['channel'] === 'oracle' && f['type'] === 'update');
    h.sim.controls.stallStreams(true);
    const chain = h.sim.context.chain;
    const stalledAt = chain.blockNumber;
    // Four blocks mined in the stall; none of them may ever reach the client.
    await vi.waitFor(() => expect(chain.blockNumber).toBeGreaterThanOrEqual(stalledAt + 4), { timeout: 5_000 });
    const lastStalled = chain.blockNumber;
    h.sim.controls.stallStreams(false);
    // Frames arrive in order: the first oracle frame past the stall's start is one mined after it.
    const first = await watcher.next((f) => f['channel'] === 'oracle' && (f['block_number'] as number) > stalledAt);
    expect(first['block_number']).toBeGreaterThan(lastStalled);
    await settle(watcher);
    expect(h.sim.controls.dropWebSockets()).toBeGreaterThanOrEqual(2);
    expect((await watcher.closed).code).toBe(1006);
    expect(watcher.schemaFailures).toEqual([]);
  });
});

describe('revocation on startSim', () => {
  it('closes the connections authenticated with a session key when REST revokes it', async () => {
    const bob = await h.trader();
    const c = await FrameRecorder.connect(h.sim.wsUrl);
    expect((await authV2(c, bob))['status']).toBe('success');
    const revoked = await h.revokeSigner(bob.account, bob.signer.address, 0n, 1);
    expect(revoked.status).toBe(200);
    expect(await c.closed).toEqual({ code: 4001, reason: 'session key revoked' });
    const again = await FrameRecorder.connect(h.sim.wsUrl);
    const reply = await authV2(again, bob);
    expect(reply).toMatchObject({
      status: 'error',
      code: 'Unauthenticated',
      message: 'Unauthenticated: signer not active for account (status 3)',
    });
    again.close();
  });
});
