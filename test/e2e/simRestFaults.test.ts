import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/sim/index.js';
import { errorOf, limitOrder, SimRestHarness } from './simRestHarness.js';

let h: SimRestHarness;

beforeAll(async () => {
  h = await SimRestHarness.start({ seed: 15, blockMs: 0 });
});
afterAll(async () => {
  await h.close();
});

describe('simulator faults', () => {
  it('applies the action and then answers 500 when the failure comes after execution', async () => {
    const { account, signer } = await h.trader();
    h.sim.controls.setFaults({ errorRate: 1, errorAfterActionShare: 1 });
    let answer;
    try {
      answer = await h.place(signer, account.address, limitOrder(), { anchor: 0n, bit: 1 });
    } finally {
      h.sim.controls.setFaults({ errorRate: 0 });
    }
    expect(errorOf(answer)).toMatchObject({ status: 500, code: 'Internal' });
    expect((await h.get(`/v1/orders/open?account=${account.address}&market_id=1`)).json['data'].total_orders).toBe('1');
    // The nonce, not the order, is the idempotency key: the resend is refused.
    const resend = await h.place(signer, account.address, limitOrder(), { anchor: 0n, bit: 1 });
    expect(resend.json['error'].message).toBe('FailedPrecondition: PlaceOrder reverted: NonceUsed');
  });

  it("answers a read's lost reply with the gateway's 502, never the 500 that means an account without on-chain state", async () => {
    const { account } = await h.trader();
    h.sim.controls.setFaults({ errorRate: 1, errorAfterActionShare: 1 });
    let answer;
    try {
      answer = await h.get(`/v1/account/cross-margin-balance?account=${account.address}`);
    } finally {
      h.sim.controls.setFaults({ errorRate: 0 });
    }
    expect(errorOf(answer)).toMatchObject({ status: 502, code: 'Unavailable' });
  });

  it('changes nothing when the failure comes before execution', async () => {
    const { account, signer } = await h.trader();
    h.sim.controls.setFaults({ errorRate: 1, errorAfterActionShare: 0 });
    let answer;
    try {
      answer = await h.place(signer, account.address, limitOrder(), { anchor: 0n, bit: 1 });
    } finally {
      h.sim.controls.setFaults({ errorRate: 0 });
    }
    expect(errorOf(answer)).toMatchObject({ status: 503, code: 'Unavailable' });
    expect(await h.nonceState(account.address)).toEqual({ nonce_anchor: '0', current_bitmap_index: 1, bitmap: '1' });
    expect((await h.place(signer, account.address, limitOrder(), { anchor: 0n, bit: 1 })).status).toBe(200);
  });

  it('delays answers by at least the configured latency', async () => {
    h.sim.controls.setFaults({ latencyMs: 120 });
    try {
      const started = Date.now();
      expect((await h.get('/v1/markets')).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(120);
      expect(h.sim.controls.state().faults.latencyMs).toBe(120);
    } finally {
      h.sim.controls.setFaults({ latencyMs: 0 });
    }
  });

  it('limits REST requests per IP per 10 s', async () => {
    const limited = await SimRestHarness.start({ seed: 16, blockMs: 0, restRequestsPer10s: 4 });
    try {
      const statuses = [];
      // Two reads were spent by the harness on the domain and the config.
      for (let i = 0; i < 3; i++) statuses.push((await limited.get('/v1/markets')).status);
      expect(statuses).toEqual([200, 200, 429]);
      const refused = await limited.get('/v1/markets');
      expect(errorOf(refused)).toEqual({
        status: 429,
        code: 'ResourceExhausted',
        message: 'ResourceExhausted: rate limited: 4 requests per 10 s per IP',
      });
    } finally {
      await limited.close();
    }
  });

  it('refuses fault settings out of range', () => {
    expect(() => h.sim.controls.setFaults({ errorRate: 2 })).toThrow(/errorRate/);
    expect(() => h.sim.controls.setRegistrationLag(-1)).toThrow(/registrationLagMs/);
  });
});

describe('simulator controls and events', () => {
  it('mines blocks on demand and stamps each action with the pending block and its own tx hash', async () => {
    const seen: SimEvent[] = [];
    const subscription = h.sim.context.events.subscribe((event) => seen.push(event));
    try {
      const head = h.sim.controls.state().blockNumber;
      expect(h.sim.controls.advanceBlocks(3)).toBe(head + 3);
      expect(seen.filter((e) => e.type === 'block').map((e) => e.blockNumber)).toEqual([head + 1, head + 2, head + 3]);
      const { account, signer } = await h.trader();
      const placed = await h.place(signer, account.address, limitOrder(), { anchor: 0n, bit: 1 });
      expect(placed.json['data'].block_number).toBe(head + 4);
      const orderEvents = seen.filter((e) => e.type === 'exchange' && e.event.type === 'order');
      expect(orderEvents.at(-1)?.txHash).toBe(placed.json['data'].tx_hash);
      const signerEvents = seen.filter((e) => e.type === 'signer');
      expect(signerEvents.at(-1)).toMatchObject({ account: account.address, signer: signer.address, status: 1 });
    } finally {
      subscription.unsubscribe();
    }
  });

  it('sets the mark of a market', async () => {
    h.sim.controls.setMark(1, '70000');
    h.sim.controls.advanceBlocks(1);
    const market = (await h.get('/v1/markets')).json['data'].markets.find(
      (m: { market_id: string }) => m.market_id === '1',
    );
    expect(Math.abs(Number(market.mark_price) - 70_000)).toBeLessThan(700);
    expect(h.sim.controls.dropWebSockets()).toBe(0);
  });
});
