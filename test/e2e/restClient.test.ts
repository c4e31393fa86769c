import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameAddress, type Address } from '../../src/core/address.js';
import { countUnits } from '../../src/core/decimal.js';
import { systemClock, unixSeconds } from '../../src/core/clock.js';
import {
  cancelAllOrdersHash,
  cancelOrderHash,
  createSigningContext,
  packOrderWord,
  parseDomain,
  placeOrderHash,
  privateKeySigner,
  signPermit,
  signTypedStruct,
  updateIsolatedMarginHash,
  updateLeverageHash,
  updateMarginModeHash,
  type Hex32,
  type SigningContext,
} from '../../src/protocol/index.js';
import { startSim } from '../../src/sim/index.js';
import { InvalidValueError } from '../../src/core/invalidValueError.js';
import { createRestClient, type RestClient } from '../../src/venue/rest/restClient.js';
import { createRestTransport } from '../../src/venue/rest/restTransport.js';
import { isFlatPosition } from '../../src/venue/schemas/restAccount.js';
import type { PermitWire } from '../../src/venue/schemas/restPermit.js';
import {
  placeOrderRequestSchema,
  placeOrderResponseSchema,
  type PlaceOrderRequestWire,
} from '../../src/venue/schemas/restOrders.js';
import { VenueError } from '../../src/venue/venueError.js';
import { hasNoDefiniteAnswer, VenueTransportError } from '../../src/venue/venueTransportError.js';

const account = privateKeySigner(`0x${'11'.repeat(32)}`);
const signer = privateKeySigner(`0x${'22'.repeat(32)}`);

let sim: Awaited<ReturnType<typeof startSim>>;
let client: RestClient;
let context: SigningContext;
/** A resting buy on market 1: minimum size, 10% below the mark so a post-only never crosses. */
let restingBuy: PlaceOrderRequestWire;
/** Next (anchor, bit) to sign with: the allocator's job in the engine, kept trivial here. */
let anchor = 0n;
let bit = 0;

async function resyncNonce(): Promise<void> {
  const state = await client.nonceState(account.address);
  anchor = state.nonce_anchor + 1n;
  bit = 0;
}

function nextNonce(): { anchor: bigint; bit: number } {
  const pair = { anchor, bit };
  bit += 1;
  if (bit > 207) {
    anchor += 1n;
    bit = 0;
  }
  return pair;
}

async function permitFor(hash: Hex32, ctx: SigningContext = context): Promise<PermitWire> {
  const nonce = nextNonce();
  return signPermit(ctx, signer, {
    account: account.address,
    actionHash: hash,
    nonceAnchor: nonce.anchor,
    nonceBitmap: nonce.bit,
    deadline: unixSeconds(systemClock) + 60,
  });
}

function orderHash(order: PlaceOrderRequestWire): Hex32 {
  return placeOrderHash({
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
}

async function registerSigner(): Promise<{ success: boolean; transaction_hash: string }> {
  const state = await client.nonceState(account.address);
  const nonceAnchor = state.nonce_anchor;
  const nonceBitmap = state.current_bitmap_index;
  const expiration = unixSeconds(systemClock) + 3600;
  const message = 'perpbot e2e signer';
  const accountSignature = await signTypedStruct(context, account, 'RegisterSigner', {
    account: account.address,
    signer: signer.address,
    message,
    expiration,
    nonceAnchor,
    nonceBitmap,
  });
  const signerSignature = await signTypedStruct(context, signer, 'VerifySigner', {
    account: account.address,
    nonceAnchor,
    nonceBitmap,
  });
  return client.registerSigner({
    account: account.address,
    signer: signer.address,
    message,
    expiration: String(expiration),
    nonce_anchor: nonceAnchor.toString(),
    nonce_bitmap_index: nonceBitmap,
    account_signature: accountSignature,
    signer_signature: signerSignature,
  });
}

async function refusal(promise: Promise<unknown>): Promise<VenueError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VenueError);
  return error as VenueError;
}

/** Everything a refusal carries, checked against the venue's raw answer. */
function expectRefusal(
  error: VenueError,
  want: {
    kind: VenueError['kind'];
    statusName: string;
    action?: string;
    errorName?: string;
    args: string[];
    httpStatus: number;
    message: string | RegExp;
    hint: RegExp;
  },
): void {
  expect(error.kind).toBe(want.kind);
  expect(error.statusName).toBe(want.statusName);
  if (want.action !== undefined) expect(error.action).toBe(want.action);
  if (want.errorName !== undefined) expect(error.errorName).toBe(want.errorName);
  expect(error.args).toEqual(want.args);
  expect(error.httpStatus).toBe(want.httpStatus);
  // The raw body is the venue's envelope, untouched: code = status name, message = the text parsed.
  const raw = JSON.parse(error.rawBody) as { error: { code: string; message: string }; request_id?: string };
  expect(raw.error.code).toBe(want.statusName);
  if (typeof want.message === 'string') expect(raw.error.message).toBe(want.message);
  else expect(raw.error.message).toMatch(want.message);
  expect(error.reason).toBe(raw.error.message);
  expect(error.requestId).toBe(raw.request_id);
  expect(error.hints.some((h) => want.hint.test(h))).toBe(true);
}

beforeAll(async () => {
  sim = await startSim({ port: 0, host: '127.0.0.1', seed: 7, blockMs: 0, registrationLagMs: 60_000 });
  client = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 5000, rateLimit: false });
  const [domain, systemConfig] = await Promise.all([client.eip712Domain(), client.systemConfig()]);
  context = createSigningContext(
    parseDomain({ ...domain, chain_id: domain.chain_id.toString() }),
    systemConfig.addresses.router,
  );
  const market = (await client.markets()).markets.find((m) => m.market_id === '1')!;
  const markTicks = countUnits(market.mark_price, market.config.step_price, 'mark', 'down');
  restingBuy = {
    market_id: 1,
    size_steps: Number(countUnits(market.config.min_order_size, market.config.step_size, 'size', 'up')),
    price_ticks: Number((markTicks * 9n) / 10n),
    side: 0,
    post_only: true,
    reduce_only: false,
    stp_mode: 0,
    order_type: 1,
    time_in_force: 0,
  };
});

afterAll(async () => {
  await sim?.close();
});

// One account's life on a fresh simulator; the steps run in order and build on each other.
describe('REST client against the simulator', () => {
  it('reads the domain, config and markets through the schemas', async () => {
    const domain = await client.eip712Domain();
    const config = await client.systemConfig();
    expect(domain.verifying_contract).toBe(config.addresses.auth);
    expect(config.addresses.router).not.toBe(config.addresses.auth);
    const { markets } = await client.markets();
    expect(markets.find((m) => m.market_id === '1')?.config.step_size).toMatch(/^\d+(\.\d+)?$/);
  });

  it('registers the account by faucet, and refuses orders until the deposit is indexed', async () => {
    await client.deposit({ account: account.address, amount: '1000' });
    expect((await registerSigner()).success).toBe(true);
    await resyncNonce();
    const order = restingBuy;
    const error = await refusal(client.placeOrder({ ...order, permit: await permitFor(orderHash(order)) }));
    expectRefusal(error, {
      kind: 'AccountNotRegistered',
      statusName: 'FailedPrecondition',
      args: [error.args[0] ?? ''],
      httpStatus: 400,
      message: /^FailedPrecondition: account 0x[0-9a-fA-F]{40} is not registered \(userId 0\)$/,
      hint: /deposit may not be indexed yet/,
    });
    expect(sameAddress(error.args[0] ?? '', account.address)).toBe(true);
    sim.controls.registerNow(account.address);
  });

  it('answers a repeated registration idempotently and reports the signer Active', async () => {
    const again = await registerSigner();
    expect(again).toMatchObject({ success: true, transaction_hash: '' });
    const status = await client.sessionKeyStatus({ account: account.address, signer: signer.address });
    expect(status.status).toBe(1);
  });

  it('places, lists and cancels an order with permits', async () => {
    await resyncNonce();
    const order = restingBuy;
    const placed = await client.placeOrder({ ...order, permit: await permitFor(orderHash(order)) });
    const open = await client.openOrders({ account: account.address, market_id: '1' });
    const record = open.orders.find((o) => o.order_id === placed.order_id);
    expect(record).toBeDefined();
    expect(record?.resting_order_id).toBe((record?.wide_order_id ?? 0n) >> 1n);
    const cancelled = await client.cancelOrder({
      market_id: 1,
      order_id: placed.order_id,
      permit: await permitFor(cancelOrderHash(1, record?.resting_order_id ?? 0n)),
    });
    expect(cancelled.success).toBe(true);
    const after = await client.openOrders({ account: account.address, market_id: '1' });
    expect(after.orders.some((o) => o.order_id === placed.order_id)).toBe(false);
  });

  it('maps the venue refusals to their kinds', async () => {
    await resyncNonce();
    const market = { ...restingBuy, order_type: 0 as const, time_in_force: 0 as const };
    expectRefusal(await refusal(client.placeOrder({ ...market, permit: await permitFor(orderHash(market)) })), {
      kind: 'MarketOrderTimeInForce',
      statusName: 'InvalidArgument',
      args: ['0'],
      httpStatus: 400,
      message: 'InvalidArgument: market orders require FOK or IOC time_in_force, got 0',
      hint: /FOK \(2\) or IOC \(3\)/,
    });

    const order = restingBuy;
    const wrongTarget = createSigningContext(context.domain, context.domain.verifyingContract);
    const notAuthorised = await refusal(
      client.placeOrder({ ...order, permit: await permitFor(orderHash(order), wrongTarget) }),
    );
    expectRefusal(notAuthorised, {
      kind: 'SignerNotAuthorized',
      statusName: 'FailedPrecondition',
      action: 'PlaceOrder',
      errorName: 'SignerNotAuthorized',
      args: [notAuthorised.args[0] ?? ''],
      httpStatus: 400,
      message: /^FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized\(0x[0-9a-fA-F]{40}\)$/,
      hint: /addresses.router/,
    });
    expect(notAuthorised.hints[0]).toMatch(/addresses.router/);

    const permit = await permitFor(orderHash(order));
    await client.placeOrder({ ...order, permit });
    expectRefusal(await refusal(client.placeOrder({ ...order, permit })), {
      kind: 'NonceUsed',
      statusName: 'FailedPrecondition',
      action: 'PlaceOrder',
      errorName: 'NonceUsed',
      args: [],
      httpStatus: 400,
      message: 'FailedPrecondition: PlaceOrder reverted: NonceUsed',
      hint: /allocate a fresh pair/,
    });
  });

  it('parses nonce and deadline refusals from the real response: status, contract error, args, HTTP status, raw body, hint', async () => {
    await resyncNonce();
    const order = restingBuy;
    const hash = orderHash(order);
    const current = (await client.nonceState(account.address)).nonce_anchor;
    const deadline = unixSeconds(systemClock) + 60;
    const sign = (nonceAnchor: bigint, nonceBitmap: number, at = deadline): Promise<PermitWire> =>
      signPermit(context, signer, {
        account: account.address,
        actionHash: hash,
        nonceAnchor,
        nonceBitmap,
        deadline: at,
      });

    // More than current + 1: refused on the anchor window, before the signature is looked at.
    const farAnchor = await refusal(client.placeOrder({ ...order, permit: await sign(current + 5n, 0) }));
    expectRefusal(farAnchor, {
      kind: 'InvalidNonceAnchor',
      statusName: 'FailedPrecondition',
      action: 'PlaceOrder',
      errorName: 'InvalidNonceAnchor',
      args: [],
      httpStatus: 400,
      message: 'FailedPrecondition: PlaceOrder reverted: InvalidNonceAnchor',
      hint: /resync with GET \/v1\/nonce-state/,
    });

    // Signed current + 1, sent current: both anchors are in the window, the signed and sent differ.
    const signedOther = await sign(current + 1n, 0);
    const mismatch = await refusal(
      client.placeOrder({ ...order, permit: { ...signedOther, nonce_anchor: current.toString() } }),
    );
    expect(mismatch.kind).toBe('InvalidNonceAnchor');
    expect(mismatch.errorName).toBe('InvalidNonceAnchor');

    // 208 is a valid uint8 on the wire (the schema lets it through) but above the contract's 207.
    const signedBitZero = await sign(current + 1n, 0);
    const index = await refusal(client.placeOrder({ ...order, permit: { ...signedBitZero, nonce_bitmap_index: 208 } }));
    expectRefusal(index, {
      kind: 'InvalidNonceIndex',
      statusName: 'FailedPrecondition',
      action: 'PlaceOrder',
      errorName: 'InvalidNonceIndex',
      args: ['208'],
      httpStatus: 400,
      message: 'FailedPrecondition: PlaceOrder reverted: InvalidNonceIndex(208)',
      hint: /roll to the next anchor/,
    });

    const past = unixSeconds(systemClock) - 5;
    const expired = await refusal(client.placeOrder({ ...order, permit: await sign(current + 1n, 0, past) }));
    expectRefusal(expired, {
      kind: 'PermitExpired',
      statusName: 'InvalidArgument',
      args: [],
      httpStatus: 400,
      message: new RegExp(`^InvalidArgument: permit deadline expired \\(deadline ${past}, now \\d+\\)$`),
      hint: /later deadline and check the local clock/,
    });
    expect(expired.action).toBeUndefined();
    expect(expired.errorName).toBeUndefined();
    expect(expired.code).toBe('VENUE_PERMIT_EXPIRED');

    // None of these refusals consumed the pair: it still places.
    const placed = await client.placeOrder({ ...order, permit: await sign(current + 1n, 0) });
    expect(placed.order_id).toMatch(/^(0x)?[0-9a-fA-F]+$/);
  });

  it('parses Unauthenticated from the real 401: a bad Bearer, and no authorisation at all', async () => {
    const order = restingBuy;
    const badToken = await refusal(client.placeOrder(order, { bearer: 'not-a-jwt' }));
    expectRefusal(badToken, {
      kind: 'Unauthenticated',
      statusName: 'Unauthenticated',
      args: [],
      httpStatus: 401,
      message: 'Unauthenticated: invalid token',
      hint: /log in again or refresh the JWT/,
    });
    expect(badToken.errorName).toBeUndefined();
    expect(badToken.endpoint).toBe('POST /v1/orders/place');

    // The client refuses to send a trading action with neither permit nor Bearer (a certain 401),
    // so the venue's answer to one is read through the client's own transport.
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const guarded = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 5000, rateLimit: false, fetch: counting });
    await expect(guarded.placeOrder(order)).rejects.toBeInstanceOf(InvalidValueError);
    expect(requests).toBe(0);
    const transport = createRestTransport({ baseUrl: sim.restUrl, timeoutMs: 5000, rateLimit: false, fetch: counting });
    const absent = await refusal(
      transport.request({
        method: 'POST',
        endpoint: 'POST /v1/orders/place',
        path: '/v1/orders/place',
        body: order,
        requestSchema: placeOrderRequestSchema,
        responseSchema: placeOrderResponseSchema,
      }),
    );
    expect(requests).toBe(1);
    expectRefusal(absent, {
      kind: 'Unauthenticated',
      statusName: 'Unauthenticated',
      args: [],
      httpStatus: 401,
      message: /^Unauthenticated: missing permit: /,
      hint: /check the Authorization header/,
    });
  });

  it('updates leverage and margin mode, and cancels all orders in a market', async () => {
    await resyncNonce();
    const leverage = await client.updateLeverage({
      market_id: '1',
      leverage: '5',
      permit_params: await permitFor(updateLeverageHash(1, 5)),
    });
    expect(leverage.success).toBe(true);
    const tooSoon = await refusal(
      client.updateLeverage({
        market_id: '1',
        leverage: '6',
        permit_params: await permitFor(updateLeverageHash(1, 6)),
      }),
    );
    expectRefusal(tooSoon, {
      kind: 'RateLimited',
      statusName: 'ResourceExhausted',
      args: [],
      httpStatus: 429,
      message: 'ResourceExhausted: rate limited: 1 request per second for update_leverage',
      hint: /leverage updates 1 per second/,
    });
    const mode = await client.updateMarginMode({
      market_id: '1',
      margin_mode: 0,
      permit_params: await permitFor(updateMarginModeHash(1, 0)),
    });
    expect(mode.success).toBe(true);
    const all = await client.cancelAll({ market_id: 1, permit: await permitFor(cancelAllOrdersHash(1)) });
    expect(all.success).toBe(true);
    expect((await client.openOrders({ account: account.address, market_id: '1' })).orders).toEqual([]);
  });

  it('logs in, refreshes, and trades with a JWT once an allowance exists', async () => {
    const { nonce } = await client.loginNonce(account.address);
    expect(nonce).toMatch(/^0x[0-9a-f]+$/);
    const deadline = unixSeconds(systemClock) + 60;
    const signature = await signTypedStruct(context, account, 'Login', {
      account: account.address,
      nonce: BigInt(nonce),
      deadline,
    });
    const tokens = await client.login({ account: account.address, nonce, deadline, signature });
    expect(tokens.expires_in).toBeGreaterThan(0);
    const rotated = await client.refresh({ refresh_token: tokens.refresh_token });
    const order = restingBuy;
    const noAllowance = await refusal(client.placeOrder(order, { bearer: rotated.access_token }));
    expectRefusal(noAllowance, {
      kind: 'AllowanceExpired',
      statusName: 'FailedPrecondition',
      action: 'PlaceOrder',
      errorName: 'AllowanceExpired',
      args: [noAllowance.args[0] ?? '', noAllowance.args[1] ?? ''],
      httpStatus: 400,
      message: /^FailedPrecondition: PlaceOrder reverted: AllowanceExpired\(0x[0-9a-fA-F]{40},0x[0-9a-fA-F]{40}\)$/,
      hint: /approve-single/,
    });
    expect(sameAddress(noAllowance.args[0] ?? '', account.address)).toBe(true);

    const config = await client.systemConfig();
    const operator = config.addresses.operator_hub as Address;
    const state = await client.nonceState(account.address);
    const approval = {
      account: account.address,
      operator,
      budget: 10n ** 24n,
      allowanceExpiry: unixSeconds(systemClock) + 3600,
      nonceAnchor: state.nonce_anchor + 1n,
      nonceBitmap: 200,
    };
    const approveSignature = await signTypedStruct(context, account, 'PermitSingle', approval);
    const approved = await client.approveSingle({
      account: account.address,
      operator,
      budget: approval.budget.toString(),
      allowance_expiry: approval.allowanceExpiry,
      nonce_anchor: approval.nonceAnchor.toString(),
      nonce_bitmap_index: approval.nonceBitmap,
      signature: approveSignature,
    });
    expect(approved.success).toBe(true);
    const placed = await client.placeOrder(order, { bearer: rotated.access_token });
    expect(placed.order_id).toMatch(/^(0x)?[0-9a-fA-F]+$/);
  });

  it('times out on a slow venue: no definite answer', async () => {
    sim.controls.setFaults({ latencyMs: 400 });
    try {
      // One attempt (deadline 0): a retried read would time out again until its deadline.
      const error = await client.markets({ timeoutMs: 100, deadlineMs: 0 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VenueTransportError);
      expect((error as VenueTransportError).kind).toBe('Timeout');
      expect(hasNoDefiniteAnswer(error)).toBe(true);
    } finally {
      sim.controls.setFaults({ latencyMs: 0 });
    }
  });

  it('treats a 5xx after the action as no definite answer; the nonce makes the resend safe', async () => {
    await resyncNonce();
    const order = restingBuy;
    const permit = await permitFor(orderHash(order));
    const before = (await client.openOrders({ account: account.address, market_id: '1' })).orders.length;
    sim.controls.setFaults({ errorRate: 1, errorAfterActionShare: 1 });
    let lost: unknown;
    try {
      lost = await client.placeOrder({ ...order, permit }).catch((e: unknown) => e);
    } finally {
      sim.controls.setFaults({ errorRate: 0 });
    }
    expect(lost).toBeInstanceOf(VenueError);
    expect((lost as VenueError).httpStatus).toBeGreaterThanOrEqual(500);
    expect(hasNoDefiniteAnswer(lost)).toBe(true);
    // It executed anyway, and resending the same signed permit cannot place it twice.
    expect((await client.openOrders({ account: account.address, market_id: '1' })).orders.length).toBe(before + 1);
    expect((await refusal(client.placeOrder({ ...order, permit }))).kind).toBe('NonceUsed');
  });

  it('trades into an isolated position, adds margin, and cannot switch mode while it is open', async () => {
    await resyncNonce();
    await client.cancelAll({ market_id: 1, permit: await permitFor(cancelAllOrdersHash(1)) });
    const isolated = await client.updateMarginMode({
      market_id: '1',
      margin_mode: 1,
      permit_params: await permitFor(updateMarginModeHash(1, 1)),
    });
    expect(isolated.success).toBe(true);
    // Amounts are USD × 10^18 (int128); 100 USD of margin for a minimum-size position.
    const hundredUsd = 100n * 10n ** 18n;
    const added = await client.updateIsolatedMargin({
      market_id: '1',
      amount: hundredUsd.toString(),
      permit_params: await permitFor(updateIsolatedMarginHash(1, hundredUsd)),
    });
    expect(added.success).toBe(true);
    sim.controls.advanceBlocks(3);
    // A market IOC buy bounded 10% above the mark takes liquidity from the simulator's makers.
    const buy = {
      ...restingBuy,
      price_ticks: Math.round((restingBuy.price_ticks * 11) / 9),
      post_only: false,
      order_type: 0 as const,
      time_in_force: 3 as const,
    };
    const placed = await client.placeOrder({ ...buy, permit: await permitFor(orderHash(buy)) });
    expect(placed.order_id).toMatch(/^(0x)?[0-9a-fA-F]+$/);
    const position = await client.position({ account: account.address, market_id: '1' });
    expect(position.side).toBe('BUY');
    expect(position.size).not.toBeNull();
    const blocked = await refusal(
      client.updateMarginMode({
        market_id: '1',
        margin_mode: 0,
        permit_params: await permitFor(updateMarginModeHash(1, 0)),
      }),
    );
    const stepSize = (await client.markets()).markets.find((m) => m.market_id === '1')?.config.step_size ?? '';
    expectRefusal(blocked, {
      kind: 'OpenPositionExists',
      statusName: 'FailedPrecondition',
      action: 'UpdateMarginMode',
      errorName: 'OpenPositionExists',
      // int256: the signed size in steps of the open long.
      args: [countUnits(position.size ?? '', stepSize, 'size', 'nearest').toString()],
      httpStatus: 400,
      message: /^FailedPrecondition: UpdateMarginMode reverted: OpenPositionExists\(\d+\)$/,
      hint: /close the position/,
    });
  });

  it('reads the position and the cross-margin balance', async () => {
    const position = await client.position({ account: account.address, market_id: '1' });
    expect(position.market_id).toBe('1');
    expect(isFlatPosition(position)).toBe(false);
    const { balance } = await client.crossMarginBalance(account.address);
    expect(balance).toMatch(/^-?\d+(\.\d+)?$/);
  });

  it('revokes the signer', async () => {
    const state = await client.nonceState(account.address);
    const nonceAnchor = state.nonce_anchor + 1n;
    const signature = await signTypedStruct(context, account, 'RevokeSigner', {
      account: account.address,
      signer: signer.address,
      nonceAnchor,
      nonceBitmap: 201,
    });
    const revoked = await client.revokeSigner({
      account: account.address,
      signer: signer.address,
      nonce_anchor: nonceAnchor.toString(),
      nonce_bitmap_index: 201,
      account_signature: signature,
    });
    expect(revoked.success).toBe(true);
    expect((await client.sessionKeyStatus({ account: account.address, signer: signer.address })).status).toBe(3);
  });
});
