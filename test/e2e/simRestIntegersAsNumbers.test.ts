import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cancelAllOrdersHash,
  cancelOrderHash,
  packOrderWord,
  placeOrderHash,
  signPermit,
  updateLeverageHash,
  type Hex32,
} from '../../src/protocol/index.js';
import { errorOf, SimRestHarness } from './simRestHarness.js';

/**
 * A client written for the live venue sends integers as JSON numbers where the docs print
 * strings (`permit.nonce_anchor`, `market_id` on the account actions; venue-wire.md §4.4, live).
 * Over raw HTTP, signed with the project's protocol functions, such a client places, cancels and
 * cancels all on the simulator, and sets its leverage.
 */
let h: SimRestHarness;

beforeAll(async () => {
  h = await SimRestHarness.start();
});
afterAll(() => h.close());

describe('a client that sends integers as JSON numbers', () => {
  it('places, cancels and cancel-alls with permit.nonce_anchor, deadline and market_id as numbers', async () => {
    const { account, signer } = await h.trader();
    const context = h.sim.context.signingContext;
    let bit = 1;
    // The permit exactly as such a client builds it: every integer a JSON number.
    const permit = async (hash: Hex32) => {
      const signed = await signPermit(context, signer, {
        account: account.address,
        actionHash: hash,
        nonceAnchor: 0n,
        nonceBitmap: bit++,
        deadline: Math.floor(Date.now() / 1000) + 300,
      });
      return { ...signed, nonce_anchor: Number(signed.nonce_anchor), deadline: Number(signed.deadline) };
    };
    const order = {
      market_id: 1,
      size_steps: 20,
      price_ticks: 500_000,
      side: 0 as const,
      post_only: true,
      reduce_only: false,
      stp_mode: 0 as const,
      order_type: 1 as const,
      time_in_force: 0 as const,
    };
    const hash = placeOrderHash({
      orderWord: packOrderWord({
        marketId: order.market_id,
        sizeSteps: BigInt(order.size_steps),
        priceTicks: BigInt(order.price_ticks),
        side: order.side,
        postOnly: order.post_only,
        reduceOnly: order.reduce_only,
        stpMode: order.stp_mode,
        orderType: order.order_type,
        timeInForce: order.time_in_force,
      }),
    });
    const placed = await h.post('/v1/orders/place', { ...order, permit: await permit(hash) });
    expect(placed.status).toBe(200);
    const orderId = String(placed.json['data'].order_id);
    const [open] = h.sim.context.exchange.openOrders(account.address, 1);
    expect(open?.order_id).toBe(orderId);

    const cancelled = await h.post('/v1/orders/cancel', {
      market_id: 1,
      order_id: orderId,
      permit: await permit(cancelOrderHash(1, BigInt(open?.resting_order_id ?? '0'))),
    });
    expect(cancelled.status).toBe(200);
    expect(h.sim.context.exchange.openOrders(account.address, 1)).toEqual([]);

    // The same integers as strings are taken too (the documented form), mixed in one body.
    const again = await h.post('/v1/orders/place', {
      ...order,
      market_id: '1',
      size_steps: '20',
      permit: { ...(await permit(hash)), nonce_bitmap_index: String(bit - 1) },
    });
    expect(again.status).toBe(200);
    const all = await h.post('/v1/orders/cancel-all', { market_id: 1, permit: await permit(cancelAllOrdersHash(1)) });
    expect(all.status).toBe(200);
    expect(h.sim.context.exchange.openOrders(account.address, 1)).toEqual([]);

    // The leverage call TOK made on mainnet: market_id and permit_params.nonce_anchor numbers.
    const leverage = await h.post('/v1/account/leverage', {
      market_id: 1,
      leverage: '5',
      permit_params: await permit(updateLeverageHash(1, 5)),
    });
    expect(leverage.status).toBe(200);
    expect(h.sim.context.exchange.position(account.address, 1).leverage).toBe('5');
  });

  it('refuses a JSON number past 2^53, which has lost digits before anyone could range-check it', async () => {
    const { account, signer } = await h.trader();
    const signed = await signPermit(h.sim.context.signingContext, signer, {
      account: account.address,
      actionHash: cancelAllOrdersHash(1),
      nonceAnchor: 0n,
      nonceBitmap: 1,
      deadline: Math.floor(Date.now() / 1000) + 300,
    });
    const answer = await h.post('/v1/orders/cancel-all', {
      market_id: 1,
      permit: { ...signed, nonce_anchor: 2 ** 53 + 2 },
    });
    expect(errorOf(answer)).toMatchObject({ status: 400, code: 'InvalidArgument' });
    expect(errorOf(answer).message).toContain('permit.nonce_anchor');
  });
});
