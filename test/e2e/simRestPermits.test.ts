import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTypedData, parseUnits, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { parseVenueErrorText } from '../../src/venue/venueError.js';
import {
  actionReceiptResponseSchema,
  openOrdersResponseSchema,
  placeOrderResponseSchema,
  positionResponseSchema,
} from '../../src/venue/schemas/restSchemas.js';
import {
  actionHash,
  digestOverTypeString,
  errorOf,
  limitOrder,
  newKey,
  orderWord,
  SimRestHarness,
  VERIFY_WITNESS_TYPES,
} from './simRestHarness.js';

let h: SimRestHarness;
let account: PrivateKeyAccount;
let signer: PrivateKeyAccount;
/** Next unused bit of anchor 0 for the shared trader (bit 0 went to the signer registration). */
let nextBit = 1;
const bit = (): number => nextBit++;

beforeAll(async () => {
  h = await SimRestHarness.start({ seed: 12 });
  ({ account, signer } = await h.trader());
});
afterAll(async () => {
  await h.close();
});

function message(answer: { json: Record<string, any> }): string {
  return answer.json['error']?.message;
}

describe('simulator REST: permits', () => {
  it('accepts both permit signature encodings and answers the place record', async () => {
    for (const encoding of ['compact64', 'full65'] as const) {
      const answer = await h.place(signer, account.address, limitOrder(), { anchor: 0n, bit: bit(), encoding });
      const data = placeOrderResponseSchema.parse(answer.json).data;
      expect(data.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(data.block_number).toBeGreaterThan(0);
      expect(data.filled_quantity).toBe('0');
    }
  });

  it('names a meaningless address when the permit target is not the router: the one the signature recovers to with the router', async () => {
    const order = limitOrder();
    const hash = actionHash.place(orderWord(order));
    const permit = await h.permit(signer, account.address, hash, {
      anchor: 0n,
      bit: bit(),
      target: h.domain.verifyingContract,
    });
    const answer = await h.post('/v1/orders/place', { ...order, permit });
    const named = await h.recoverPermitSigner(permit, hash);
    expect(named).not.toBe(signer.address);
    expect(errorOf(answer)).toEqual({
      status: 400,
      code: 'FailedPrecondition',
      message: `FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(${named})`,
    });
    expect(parseVenueErrorText(message(answer))).toMatchObject({
      kind: 'SignerNotAuthorized',
      action: 'PlaceOrder',
      statusName: 'FailedPrecondition',
      args: [named],
    });
  });

  it('refuses a permit signed with a wrong integer width in the struct (the signature recovers a wrong address)', async () => {
    const order = limitOrder();
    const pair = { anchor: 0n, bit: bit() };
    const deadline = Math.floor(Date.now() / 1000) + 60;
    const signature = await signer.signTypedData({
      domain: h.domain,
      primaryType: 'VerifyWitness',
      types: {
        VerifyWitness: [
          { name: 'account', type: 'address' },
          { name: 'target', type: 'address' },
          { name: 'hash', type: 'bytes32' },
          { name: 'nonceAnchor', type: 'uint256' },
          { name: 'nonceBitmap', type: 'uint8' },
          { name: 'deadline', type: 'uint32' },
        ],
      },
      message: {
        account: account.address,
        target: h.router,
        hash: actionHash.place(orderWord(order)),
        nonceAnchor: 0n,
        nonceBitmap: pair.bit,
        deadline,
      },
    });
    const permit = {
      account: account.address,
      signer: signer.address,
      nonce_anchor: '0',
      nonce_bitmap_index: pair.bit,
      deadline,
      signature: Buffer.from(signature.slice(2), 'hex').toString('base64'),
    };
    const answer = await h.post('/v1/orders/place', { ...order, permit });
    const named = await h.recoverPermitSigner(permit, actionHash.place(orderWord(order)));
    expect(named).not.toBe(signer.address);
    expect(message(answer)).toBe(`FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(${named})`);
    expect(parseVenueErrorText(message(answer))).toMatchObject({
      kind: 'SignerNotAuthorized',
      statusName: 'FailedPrecondition',
      args: [named],
    });
  });

  it('refuses a permit signed over a type string with a stray space (the signature recovers the wrong address)', async () => {
    const order = limitOrder();
    const hash = actionHash.place(orderWord(order));
    const pair = { anchor: 0n, bit: bit() };
    const deadline = Math.floor(Date.now() / 1000) + 60;
    const witness = {
      account: account.address,
      target: h.router,
      hash,
      nonceAnchor: Number(pair.anchor),
      nonceBitmap: pair.bit,
      deadline,
    };
    const digestOver = (typeString: string): Hex =>
      digestOverTypeString(
        h.domain,
        typeString,
        VERIFY_WITNESS_TYPES.VerifyWitness.map(({ name, type }) => ({ type, value: witness[name] })),
      );
    const exact =
      'VerifyWitness(address account,address target,bytes32 hash,uint48 nonceAnchor,uint8 nonceBitmap,uint32 deadline)';
    // The hand-written digest is the real one for the exact string, so only the space differs.
    expect(digestOver(exact)).toBe(
      hashTypedData({ domain: h.domain, primaryType: 'VerifyWitness', types: VERIFY_WITNESS_TYPES, message: witness }),
    );
    const signature = await signer.sign({ hash: digestOver(exact.replace('address target', ' address target')) });
    const permit = {
      account: account.address,
      signer: signer.address,
      nonce_anchor: pair.anchor.toString(),
      nonce_bitmap_index: pair.bit,
      deadline,
      signature: Buffer.from(signature.slice(2), 'hex').toString('base64'),
    };
    const answer = await h.post('/v1/orders/place', { ...order, permit });
    const named = await h.recoverPermitSigner(permit, hash);
    expect(named).not.toBe(signer.address);
    expect(errorOf(answer)).toEqual({
      status: 400,
      code: 'FailedPrecondition',
      message: `FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(${named})`,
    });
    // Nothing was consumed: the same pair signed correctly goes through.
    expect((await h.place(signer, account.address, order, pair)).status).toBe(200);
  });

  it('refuses a body that differs from what was signed', async () => {
    const signedOrder = limitOrder({ size_steps: 20 });
    const permit = await h.permit(signer, account.address, actionHash.place(orderWord(signedOrder)), {
      anchor: 0n,
      bit: bit(),
    });
    const sent = { ...signedOrder, size_steps: 21 };
    const answer = await h.post('/v1/orders/place', { ...sent, permit });
    const named = await h.recoverPermitSigner(permit, actionHash.place(orderWord(sent)));
    expect(named).not.toBe(signer.address);
    expect(message(answer)).toBe(`FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(${named})`);
  });

  it('refuses a permit of a signer that was never registered for the account', async () => {
    const stranger = newKey();
    const answer = await h.place(stranger, account.address, limitOrder(), { anchor: 0n, bit: bit() });
    expect(message(answer)).toBe(`FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(${stranger.address})`);
  });

  it('answers NonceUsed for a reused pair, and a reverted action consumes nothing', async () => {
    const pair = { anchor: 0n, bit: bit() };
    const market = limitOrder({ order_type: 0, time_in_force: 0, price_ticks: 700_000 });
    const tif = await h.place(signer, account.address, market, pair);
    expect(errorOf(tif)).toEqual({
      status: 400,
      code: 'InvalidArgument',
      message: 'InvalidArgument: market orders require FOK or IOC time_in_force, got 0',
    });
    expect(parseVenueErrorText(message(tif))).toMatchObject({ kind: 'MarketOrderTimeInForce', args: ['0'] });
    const gtt = await h.place(signer, account.address, { ...market, time_in_force: 1 }, pair);
    expect(errorOf(gtt)).toEqual({
      status: 400,
      code: 'InvalidArgument',
      message: 'InvalidArgument: market orders require FOK or IOC time_in_force, got 1',
    });
    expect(parseVenueErrorText(message(gtt))).toMatchObject({ kind: 'MarketOrderTimeInForce', args: ['1'] });
    expect((await h.place(signer, account.address, limitOrder(), pair)).status).toBe(200);
    const reused = await h.place(signer, account.address, limitOrder({ size_steps: 30 }), pair);
    expect(message(reused)).toBe('FailedPrecondition: PlaceOrder reverted: NonceUsed');
    expect(parseVenueErrorText(message(reused)).kind).toBe('NonceUsed');
  });

  it('answers InvalidNonceIndex(208) above bit 207', async () => {
    const answer = await h.place(signer, account.address, limitOrder(), { anchor: 0n, bit: 208 });
    expect(message(answer)).toBe('FailedPrecondition: PlaceOrder reverted: InvalidNonceIndex(208)');
    expect(parseVenueErrorText(message(answer))).toMatchObject({ kind: 'InvalidNonceIndex', args: ['208'] });
  });

  it('answers InvalidNonceAnchor beyond current + 1 and when the signed anchor differs from the sent one', async () => {
    const far = await h.place(signer, account.address, limitOrder(), { anchor: 2n, bit: 0 });
    expect(message(far)).toBe('FailedPrecondition: PlaceOrder reverted: InvalidNonceAnchor');
    expect(parseVenueErrorText(message(far)).kind).toBe('InvalidNonceAnchor');
    const mismatch = await h.place(signer, account.address, limitOrder(), { anchor: 1n, signedAnchor: 0n, bit: 150 });
    expect(message(mismatch)).toBe('FailedPrecondition: PlaceOrder reverted: InvalidNonceAnchor');
  });

  it('refuses an expired deadline with a text the client recognises', async () => {
    const answer = await h.place(signer, account.address, limitOrder(), {
      anchor: 0n,
      bit: bit(),
      deadline: Math.floor(Date.now() / 1000) - 5,
    });
    expect(errorOf(answer)).toMatchObject({ status: 400, code: 'InvalidArgument' });
    expect(message(answer)).toMatch(/^InvalidArgument: permit deadline expired/);
    expect(parseVenueErrorText(message(answer)).kind).toBe('PermitExpired');
  });

  it('moves to anchor + 1 and reports the nonce state exactly', async () => {
    const other = await h.trader();
    expect((await h.place(other.signer, other.account.address, limitOrder(), { anchor: 1n, bit: 3 })).status).toBe(200);
    expect(await h.nonceState(other.account.address)).toEqual({
      nonce_anchor: '1',
      current_bitmap_index: 4,
      bitmap: '8',
    });
    expect((await h.place(other.signer, other.account.address, limitOrder(), { anchor: 1n, bit: 0 })).status).toBe(200);
    expect(await h.nonceState(other.account.address)).toEqual({
      nonce_anchor: '1',
      current_bitmap_index: 4,
      bitmap: '9',
    });
    const stale = await h.place(other.signer, other.account.address, limitOrder(), { anchor: 0n, bit: 9 });
    expect(message(stale)).toBe('FailedPrecondition: PlaceOrder reverted: InvalidNonceAnchor');
  });
});

describe('simulator REST: orders', () => {
  it('lists open orders and cancels through the resting id the hash commits to', async () => {
    const trader = await h.trader();
    const placed = await h.place(trader.signer, trader.account.address, limitOrder({ price_ticks: 400_000 }), {
      anchor: 0n,
      bit: 1,
    });
    const orderId: string = placed.json['data'].order_id;
    const open = openOrdersResponseSchema.parse(
      (await h.get(`/v1/orders/open?account=${trader.account.address}&market_id=1`)).json,
    ).data;
    expect(open.total_orders).toBe(1);
    const record = open.orders[0];
    expect(record?.order_id).toBe(orderId);
    expect(record?.resting_order_id).toBe((record?.wide_order_id ?? 0n) >> 1n);
    // A hash over anything but the resting id does not recover to the signer.
    const wrongId = BigInt(`0x${orderId.replace(/^0x/, '').slice(0, 16)}`) + 1n;
    const wrong = await h.post('/v1/orders/cancel', {
      market_id: 1,
      order_id: orderId,
      permit: await h.permit(trader.signer, trader.account.address, actionHash.cancel(1, wrongId), {
        anchor: 0n,
        bit: 2,
      }),
    });
    expect(parseVenueErrorText(message(wrong))).toMatchObject({ kind: 'SignerNotAuthorized', action: 'CancelOrder' });
    const cancel = await h.post('/v1/orders/cancel', {
      market_id: 1,
      order_id: orderId,
      permit: await h.permit(
        trader.signer,
        trader.account.address,
        actionHash.cancel(1, record?.resting_order_id ?? 0n),
        { anchor: 0n, bit: 2 },
      ),
    });
    expect(actionReceiptResponseSchema.parse(cancel.json).data.success).toBe(true);
    const after = (await h.get(`/v1/orders/open?account=${trader.account.address}&market_id=1`)).json['data'];
    expect(after).toEqual({ orders: [], market_id: '1', account: trader.account.address, total_orders: '0' });
    const permit3 = await h.permit(trader.signer, trader.account.address, actionHash.cancel(1, 1n), {
      anchor: 0n,
      bit: 3,
    });
    // Not 24 bytes: the live venue's text (venue-wire.md §4.15).
    const short = await h.post('/v1/orders/cancel', { market_id: 1, order_id: '0xdeadbeef', permit: permit3 });
    expect(errorOf(short)).toEqual({
      status: 400,
      code: 'InvalidArgument',
      message: 'InvalidArgument: invalid order_id length: expected 24, got 4',
    });
    const unknownId = `0x${'de'.repeat(24)}`;
    const unknown = await h.post('/v1/orders/cancel', { market_id: 1, order_id: unknownId, permit: permit3 });
    expect(errorOf(unknown)).toEqual({
      status: 400,
      code: 'NotFound',
      message: `NotFound: order ${unknownId} not found`,
    });
  });

  it('cancels every order of a market with cancel-all', async () => {
    const trader = await h.trader();
    for (const b of [1, 2]) {
      expect(
        (
          await h.place(trader.signer, trader.account.address, limitOrder({ price_ticks: 400_000 + b }), {
            anchor: 0n,
            bit: b,
          })
        ).status,
      ).toBe(200);
    }
    const all = await h.post('/v1/orders/cancel-all', {
      market_id: 1,
      permit: await h.permit(trader.signer, trader.account.address, actionHash.cancelAll(1), { anchor: 0n, bit: 3 }),
    });
    expect(actionReceiptResponseSchema.parse(all.json).data.success).toBe(true);
    expect(
      (await h.get(`/v1/orders/open?account=${trader.account.address}&market_id=1`)).json['data'].total_orders,
    ).toBe('0');
    const zero = await h.post('/v1/orders/cancel-all', {
      market_id: 0,
      permit: await h.permit(trader.signer, trader.account.address, actionHash.cancelAll(0), { anchor: 0n, bit: 4 }),
    });
    expect(errorOf(zero)).toMatchObject({ status: 400, code: 'InvalidArgument' });
    expect(message(zero)).toMatch(/market_id: a market id is required/);
  });
});

describe('simulator REST: account actions', () => {
  it('checks leverage bounds, applies a valid leverage and rate-limits the next one', async () => {
    const trader = await h.trader();
    const leverage = async (value: string, b: number) =>
      h.post('/v1/account/leverage', {
        market_id: '1',
        leverage: value,
        permit_params: await h.permit(
          trader.signer,
          trader.account.address,
          actionHash.leverage(1, Number(value) & 0xff),
          { anchor: 0n, bit: b },
        ),
      });
    for (const bad of ['0', '256', '-1', '2.5']) {
      expect(errorOf(await leverage(bad, 1))).toMatchObject({ status: 400, code: 'InvalidArgument' });
    }
    expect((await leverage('5', 1)).status).toBe(200);
    const limited = await leverage('6', 2);
    expect(errorOf(limited)).toEqual({
      status: 429,
      code: 'ResourceExhausted',
      message: 'ResourceExhausted: rate limited: 1 request per second for update_leverage',
    });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const tooHigh = await leverage('60', 2);
    expect(message(tooHigh)).toMatch(/^InvalidArgument: leverage 60 is above max_leverage 50/);
    // The refused attempts consumed nothing: bit 2 is still free.
    expect((await h.nonceState(trader.account.address)).bitmap).toBe(String(0b11));
  });

  it('refuses a margin-mode switch while a position is open, naming the signed size (long and short), and reads the position', async () => {
    h.sim.controls.advanceBlocks(2);
    const stepSize = parseUnits(
      (await h.get('/v1/markets')).json['data'].markets.find((m: { market_id: string }) => m.market_id === '1').config
        .step_size,
      18,
    );
    for (const [side, bound, expectedSide] of [
      [0, 900_000, 'BUY'],
      [1, 400_000, 'SELL'],
    ] as const) {
      const trader = await h.trader();
      const market = limitOrder({ side, order_type: 0, time_in_force: 3, price_ticks: bound });
      const fill = await h.place(trader.signer, trader.account.address, market, { anchor: 0n, bit: 1 });
      expect(fill.json['data'].filled_percent).toBeGreaterThan(0);
      const position = positionResponseSchema.parse(
        (await h.get(`/v1/account/position?account=${trader.account.address}&market_id=1`)).json,
      ).data.position;
      expect(position.side).toBe(expectedSide);
      expect(position.market_id).toBe('1');
      // The contract's int256 is the signed position size in steps: negative when short.
      const steps = parseUnits(position.size ?? '', 18) / stepSize;
      expect(steps).toBeGreaterThan(0n);
      const signed = expectedSide === 'SELL' ? -steps : steps;
      const answer = await h.post('/v1/account/margin-mode', {
        market_id: '1',
        margin_mode: 1,
        permit_params: await h.permit(trader.signer, trader.account.address, actionHash.marginMode(1, 1), {
          anchor: 0n,
          bit: 2,
        }),
      });
      expect(errorOf(answer)).toEqual({
        status: 400,
        code: 'FailedPrecondition',
        message: `FailedPrecondition: UpdateMarginMode reverted: OpenPositionExists(${signed})`,
      });
      expect(parseVenueErrorText(message(answer))).toMatchObject({
        kind: 'OpenPositionExists',
        args: [String(signed)],
      });
      const flat = (await h.get(`/v1/account/position?account=${trader.account.address}&market_id=2`)).json['data']
        .position;
      expect(flat).toMatchObject({ market_id: '0', size: '', side: 0 });
    }
  });

  it('switches a flat market to isolated and moves margin into it', async () => {
    const trader = await h.trader();
    const mode = await h.post('/v1/account/margin-mode', {
      market_id: '2',
      margin_mode: 1,
      permit_params: await h.permit(trader.signer, trader.account.address, actionHash.marginMode(2, 1), {
        anchor: 0n,
        bit: 1,
      }),
    });
    expect(actionReceiptResponseSchema.parse(mode.json).data.success).toBe(true);
    const amount = 10n * 10n ** 18n;
    const mismatch = await h.post('/v1/account/isolated-margin', {
      market_id: '2',
      amount: String(amount + 1n),
      permit_params: await h.permit(trader.signer, trader.account.address, actionHash.isolatedMargin(2, amount), {
        anchor: 0n,
        bit: 2,
      }),
    });
    // The live venue's wording for an account action (venue-wire.md §4.14), still SignerNotAuthorized to the client.
    expect(message(mismatch)).toMatch(
      /^InvalidArgument: permit signature mismatch: expected 0x[0-9a-fA-F]{40}, got 0x[0-9a-fA-F]{40}$/,
    );
    expect(parseVenueErrorText(message(mismatch))).toMatchObject({ kind: 'SignerNotAuthorized' });
    const add = await h.post('/v1/account/isolated-margin', {
      market_id: '2',
      amount: String(amount),
      permit_params: await h.permit(trader.signer, trader.account.address, actionHash.isolatedMargin(2, amount), {
        anchor: 0n,
        bit: 2,
      }),
    });
    expect(add.status).toBe(200);
    const balance = (await h.get(`/v1/account/cross-margin-balance?account=${trader.account.address}`)).json['data']
      .balance;
    expect(balance).toBe('990');
    // A number market_id is fine (venue-wire.md §4.4); a fractional one is not.
    const malformed = await h.post('/v1/account/isolated-margin', { market_id: 2.5, amount: '1.5' });
    expect(message(malformed)).toMatch(/^InvalidArgument: invalid request body: market_id: .*; amount: /);
  });
});
