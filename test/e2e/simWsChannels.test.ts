import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { privateKeySigner } from '../../src/protocol/digestSigner.js';
import { signTypedStruct } from '../../src/protocol/typedSignatures.js';
import { compareDecimals } from '../../src/core/decimal.js';
import { orderbookChecksum } from '../../src/protocol/orderbookChecksum.js';
import { canonicalTradesFrameSchema } from '../../src/venue/schemas/wsWireCanonical.js';
import { FrameRecorder, isAck, isAuthReply, settle, startWsSim, type WsSim } from './simWsHarness.js';

const alice = privateKeySigner('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const aliceSession = privateKeySigner('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba');
const bob = privateKeySigner('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

let sim: WsSim;
let client: FrameRecorder;

beforeEach(async () => {
  sim = await startWsSim({ inboundFramesPerSecond: 1_000 });
  sim.deposit(alice.address);
  sim.deposit(bob.address);
  client = await FrameRecorder.connect(sim.url);
});

afterEach(async () => {
  expect(client.schemaFailures).toEqual([]);
  client.close();
  await sim.close();
});

type Level = { price: string; quantity: string; order_count: number };

describe('oracle channel', () => {
  it('sends no snapshot, then exactly one frame per block with every subscribed market', async () => {
    await client.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle'));
    await settle(client);
    expect(client.ofChannel('oracle')).toEqual([]);
    const blocks = [sim.mineBlock(), sim.mineBlock(), sim.mineBlock()];
    await settle(client);
    const frames = client.ofChannel('oracle');
    expect(frames.map((f) => f['block_number'])).toEqual(blocks);
    const frame = frames[0] ?? {};
    expect(Object.keys(frame).sort()).toEqual([
      'block_number',
      'channel',
      'data',
      'log_index',
      'market_id',
      'tx_hash',
      'type',
      'worker_timestamp',
    ]);
    expect(frame).toMatchObject({ channel: 'oracle', type: 'update', market_id: null, log_index: 0 });
    expect(frame['tx_hash']).toMatch(/^0x[0-9a-f]{64}$/);
    expect(frame['worker_timestamp']).toBe(String(BigInt(sim.clock.now()) * 1_000_000n));
    const data = frame['data'] as {
      prices: Record<string, { index_price?: string; mark_price?: string }>;
      timestamp: number;
    };
    expect(data.timestamp).toBe(Math.floor(sim.clock.now() / 1000));
    const markets = sim.exchange.markets().map((m) => m.market_id);
    expect(Object.keys(data.prices).sort()).toEqual([...markets].sort());
    const btc = data.prices['1'];
    expect(btc?.mark_price).toMatch(/^\d+$/);
    expect(btc?.index_price).toMatch(/^\d+$/);
    // wei: the human price is the integer / 10^18, near the 65,000 start of the BTC market.
    expect(BigInt(btc?.mark_price ?? '0') / 10n ** 18n).toBeGreaterThan(60_000n);
  });

  it('carries only the filtered markets', async () => {
    await client.request({ method: 'subscribe', params: { channel: 'oracle', market_ids: [2] } }, isAck('oracle'));
    sim.mineBlock();
    const frame = await client.next((f) => f['channel'] === 'oracle' && f['type'] === 'update');
    expect(Object.keys((frame['data'] as { prices: object }).prices)).toEqual(['2']);
  });
});

describe('orderbook channel', () => {
  it('a snapshot then absolute updates whose checksums match the book the client rebuilds', async () => {
    sim.place(alice.address, { side: 0, price_ticks: 649_000, size_steps: 100 });
    sim.place(alice.address, { side: 0, price_ticks: 648_000, size_steps: 50 });
    sim.place(bob.address, { side: 1, price_ticks: 651_000, size_steps: 70 });
    await client.request(
      { method: 'subscribe', params: { channel: 'orderbook', market_ids: [1] } },
      isAck('orderbook'),
    );
    const snapshot = await client.next((f) => f['channel'] === 'orderbook' && f['type'] === 'snapshot');
    const bids = new Map<string, Level>();
    const asks = new Map<string, Level>();
    const apply = (frame: Record<string, unknown>): void => {
      const data = frame['data'] as { bids: Level[]; asks: Level[]; market_id: number };
      // The venue's envelope (venue-wire.md §3): string id outside, number inside.
      expect(frame['market_id']).toBe('1');
      expect(data.market_id).toBe(1);
      for (const [side, levels] of [
        [bids, data.bids],
        [asks, data.asks],
      ] as const) {
        for (const level of levels) {
          if (level.quantity === '0') side.delete(level.price);
          else side.set(level.price, level);
        }
      }
      // The checksum rides on updates only, at the envelope.
      if (frame['type'] === 'update')
        expect(frame['checksum']).toBe(orderbookChecksum(sorted(bids, true), sorted(asks, false)));
      else expect(frame).not.toHaveProperty('checksum');
    };
    apply(snapshot);
    expect(sorted(bids, true).map((l) => l.price)).toEqual(['64900', '64800']);

    const changes = [
      () => sim.place(alice.address, { side: 0, price_ticks: 649_000, size_steps: 30 }), // grows a level
      () => sim.place(bob.address, { side: 1, price_ticks: 648_000, size_steps: 130 }), // takes the best bid level whole
      () => sim.place(bob.address, { side: 1, price_ticks: 652_000, size_steps: 20 }), // a new ask level
    ];
    for (const change of changes) {
      change();
      await settle(client);
    }
    sim.mineBlock(); // no synthetic makers: a block leaves the book alone and publishes nothing
    await settle(client);
    const updates = client.ofChannel('orderbook').filter((f) => f['type'] === 'update');
    expect(updates).toHaveLength(3);
    expect(client.ofChannel('orderbook')[0]?.['type']).toBe('snapshot');
    const [grown, taken, added] = updates.map((u) => u['data'] as { bids: Level[]; asks: Level[] });
    expect(grown).toMatchObject({ bids: [{ price: '64900', quantity: '0.0013', order_count: 2 }], asks: [] });
    expect(taken).toMatchObject({ bids: [{ price: '64900', quantity: '0', order_count: 0 }], asks: [] });
    expect(added).toMatchObject({ bids: [], asks: [{ price: '65200', quantity: '0.0002', order_count: 1 }] });
    for (const update of updates) apply(update);

    const book = sim.exchange.book(1);
    const plain = (levels: readonly { price: string; quantity: string }[]) =>
      levels.map(({ price, quantity }) => ({ price, quantity }));
    expect(plain(sorted(bids, true))).toEqual(plain(book.bids));
    expect(plain(sorted(asks, false))).toEqual(plain(book.asks));
  });
});

describe('orderbook channel with no connection open', () => {
  it('a book that changed while nobody was connected reaches the next subscriber whole, then in consistent updates', async () => {
    await client.request(
      { method: 'subscribe', params: { channel: 'orderbook', market_ids: [1] } },
      isAck('orderbook'),
    );
    sim.place(alice.address, { side: 0, price_ticks: 649_000, size_steps: 100 });
    await client.next((f) => f['channel'] === 'orderbook' && f['type'] === 'update');
    client.close();
    await client.closed;
    await waitFor(() => sim.ws.connectionCount() === 0);
    // Published to nobody: the level grows, another appears, one goes.
    sim.place(alice.address, { side: 0, price_ticks: 649_000, size_steps: 40 });
    sim.place(bob.address, { side: 1, price_ticks: 652_000, size_steps: 20 });
    sim.place(alice.address, { side: 0, price_ticks: 647_000, size_steps: 20 });
    sim.act(() => sim.exchange.cancelAll(bob.address, 1));

    client = await FrameRecorder.connect(sim.url);
    await client.request(
      { method: 'subscribe', params: { channel: 'orderbook', market_ids: [1] } },
      isAck('orderbook'),
    );
    const snapshot = await client.next((f) => f['channel'] === 'orderbook' && f['type'] === 'snapshot');
    const data = snapshot['data'] as { bids: Level[]; asks: Level[] };
    expect(data.bids.map((l) => [l.price, l.quantity])).toEqual([
      ['64900', '0.0014'],
      ['64700', '0.0002'],
    ]);
    expect(data.asks).toEqual([]);
    sim.place(bob.address, { side: 1, price_ticks: 653_000, size_steps: 30 });
    const update = await client.next((f) => f['channel'] === 'orderbook' && f['type'] === 'update');
    // Only the change since the snapshot, and a checksum over the book the client now holds.
    expect(update['data']).toMatchObject({ bids: [], asks: [{ price: '65300', quantity: '0.0003', order_count: 1 }] });
    const bids = new Map(data.bids.map((l) => [l.price, l]));
    const asks = new Map([['65300', { price: '65300', quantity: '0.0003', order_count: 1 }]]);
    expect(update['checksum']).toBe(orderbookChecksum(sorted(bids, true), sorted(asks, false)));
  });
});

async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(done()).toBe(true);
}

async function authenticateAlice(): Promise<void> {
  sim.chain.signers.activate(alice.address, aliceSession.address);
  const nonce = sim.chain.issueLoginNonce(alice.address);
  const message = 'WebSocket Authentication';
  const signature = await signTypedStruct(sim.ctx.signingContext, aliceSession, 'RegisterV2', {
    signer: aliceSession.address,
    message,
    nonce: BigInt(nonce),
  });
  const reply = await client.request(
    { method: 'auth_v2', params: { account: alice.address, signer: aliceSession.address, message, nonce, signature } },
    isAuthReply,
  );
  expect(reply['status']).toBe('success');
}

describe('orders channel', () => {
  it('one update per transaction carries every order it changed', async () => {
    await authenticateAlice();
    await client.request({ method: 'subscribe', params: { channel: 'orders', market_ids: [1] } }, isAck('orders'));
    sim.place(alice.address, { side: 0, price_ticks: 640_000 });
    await settle(client);
    sim.place(alice.address, { side: 0, price_ticks: 641_000 });
    await settle(client);
    const beforeCancel = client.ofChannel('orders').length;
    sim.act(() => sim.exchange.cancelAll(alice.address, 1));
    await settle(client);
    const frames = client.ofChannel('orders');
    expect(frames.map((f) => f['type'])).toEqual(['snapshot', 'update', 'update', 'update']);
    expect(frames.length - beforeCancel).toBe(1);
    const cancelled = frames.at(-1)?.['data'] as { status: string; price_ticks: number }[];
    expect(cancelled.map((o) => [o.status, o.price_ticks]).sort()).toEqual([
      ['ORDER_STATUS_CANCELLED', 640_000],
      ['ORDER_STATUS_CANCELLED', 641_000],
    ]);
    expect(frames.at(-1)?.['tx_hash']).toMatch(/^0x[0-9a-f]{64}$/);
  });
});

describe('trades and private channels after a trade', () => {
  it('deliver the trade publicly and orders, fills, positions and account to the maker only', async () => {
    await authenticateAlice();

    sim.place(alice.address, { side: 0, price_ticks: 649_000, size_steps: 100 });
    for (const channel of ['orders', 'positions', 'fills', 'account', 'trades']) {
      await client.request(
        { method: 'subscribe', params: { channel, market_ids: channel === 'trades' ? [1] : [] } },
        isAck(channel),
      );
    }
    await settle(client);
    const ordersSnapshot = client.ofChannel('orders').find((f) => f['type'] === 'snapshot');
    expect(ordersSnapshot?.['data']).toEqual(sim.exchange.openOrders(alice.address));
    expect(client.ofChannel('account')[0]?.['type']).toBe('snapshot');
    expect(client.ofChannel('fills')).toEqual([]);

    const observer = await FrameRecorder.connect(sim.url);
    await observer.request({ method: 'subscribe', params: { channel: 'trades' } }, isAck('trades'));

    sim.place(bob.address, { side: 1, price_ticks: 649_000, size_steps: 40, order_type: 0, time_in_force: 3 });
    await settle(client);
    await settle(observer);

    const trade = client.ofChannel('trades')[0];
    expect(trade).toMatchObject({
      type: 'update',
      market_id: '1',
      data: {
        maker: alice.address,
        taker: bob.address,
        maker_side: 0,
        price: '64900',
        size: '0.0004',
        fee_liquidation: '0',
      },
    });
    canonicalTradesFrameSchema.parse(trade);
    expect(observer.ofChannel('trades')).toHaveLength(1);

    const fills = client.ofChannel('fills');
    expect(fills).toHaveLength(1);
    expect(fills[0]?.['data']).toMatchObject({
      market_id: 1,
      side: 0,
      price: '64900',
      size: '0.0004',
      liquidity_indicator: 'MAKER',
    });

    const orderUpdate = client.ofChannel('orders').find((f) => f['type'] === 'update');
    expect(orderUpdate?.['data']).toEqual([
      expect.objectContaining({ status: 'ORDER_STATUS_OPEN', filled_size: '0.0004', account: alice.address }),
    ]);

    const position = client.ofChannel('positions').find((f) => f['type'] === 'update');
    expect(position?.['data']).toEqual([expect.objectContaining({ market_id: 1, size: '0.0004', side: 'BUY' })]);
    expect(client.ofChannel('account').some((f) => f['type'] === 'update')).toBe(true);

    // The taker's private events never reach the maker's connection.
    expect(client.ofChannel('fills').every((f) => (f['data'] as { account?: string }).account === alice.address)).toBe(
      true,
    );
    expect(observer.schemaFailures).toEqual([]);
    observer.close();
  });
});

function sorted(levels: Map<string, Level>, descending: boolean): Level[] {
  return [...levels.values()].sort((a, b) => compareDecimals(a.price, b.price) * (descending ? -1 : 1));
}
