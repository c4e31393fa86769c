import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateKeyAccount } from 'viem/accounts';
import { parseUnits, type Hex } from 'viem';
import { ManualClock } from '../../src/core/clock.js';
import { parseVenueErrorText } from '../../src/venue/venueError.js';
import { tokenPairResponseSchema } from '../../src/venue/schemas/restSchemas.js';
import { errorOf, limitOrder, newKey, SimRestHarness } from './simRestHarness.js';
import { fetchAuthNonce as fetchNonce, login, loginBody } from './support/viemAuth.js';

let h: SimRestHarness;

beforeAll(async () => {
  h = await SimRestHarness.start({ seed: 13 });
});
afterAll(async () => {
  await h.close();
});

async function approveBody(
  harness: SimRestHarness,
  key: PrivateKeyAccount,
  options: {
    budget: bigint;
    expiry?: number;
    operator?: Hex;
    anchor?: bigint;
    bit: number;
    encoding?: 'hex' | 'base64';
    signedBy?: PrivateKeyAccount;
  },
): Promise<Record<string, unknown>> {
  const operator = options.operator ?? harness.operatorHub;
  const expiry = options.expiry ?? Math.floor(Date.now() / 1000) + 3600;
  const signature = await (options.signedBy ?? key).signTypedData({
    domain: harness.domain,
    primaryType: 'PermitSingle',
    types: {
      PermitSingle: [
        { name: 'account', type: 'address' },
        { name: 'operator', type: 'address' },
        { name: 'budget', type: 'uint96' },
        { name: 'allowanceExpiry', type: 'uint32' },
        { name: 'nonceAnchor', type: 'uint48' },
        { name: 'nonceBitmap', type: 'uint8' },
      ],
    },
    message: {
      account: key.address,
      operator,
      budget: options.budget,
      allowanceExpiry: expiry,
      nonceAnchor: Number(options.anchor ?? 0n),
      nonceBitmap: options.bit,
    },
  });
  return {
    account: key.address,
    operator,
    budget: options.budget.toString(),
    allowance_expiry: expiry,
    nonce_anchor: (options.anchor ?? 0n).toString(),
    nonce_bitmap_index: options.bit,
    signature: options.encoding === 'base64' ? Buffer.from(signature.slice(2), 'hex').toString('base64') : signature,
  };
}

const USD = 10n ** 18n;

describe('simulator REST: login', () => {
  it('issues a single-use nonce and a token pair for an account-signed Login', async () => {
    const key = newKey();
    const nonce = await fetchNonce(h, key.address);
    expect(nonce).toMatch(/^0x[0-9a-f]{64}$/);
    const body = await loginBody(h, key, nonce, Math.floor(Date.now() / 1000) + 60);
    const pair = tokenPairResponseSchema.parse((await h.post('/v1/auth/login', body)).json).data;
    expect(pair.expires_in).toBe(900);
    const replay = await h.post('/v1/auth/login', body);
    expect(errorOf(replay)).toMatchObject({ status: 401, code: 'Unauthenticated' });
    expect(parseVenueErrorText(replay.json['error'].message).kind).toBe('Unauthenticated');
  });

  it('accepts the nonce without 0x and refuses a Login signed by another key', async () => {
    const key = newKey();
    const nonce = await fetchNonce(h, key.address);
    const bare = await h.post(
      '/v1/auth/login',
      await loginBody(h, key, nonce.slice(2), Math.floor(Date.now() / 1000) + 60),
    );
    expect(bare.status).toBe(200);
    const nonce2 = await fetchNonce(h, key.address);
    const forged = {
      ...(await loginBody(h, newKey(), nonce2, Math.floor(Date.now() / 1000) + 60)),
      account: key.address,
    };
    const answer = await h.post('/v1/auth/login', forged);
    expect(errorOf(answer)).toMatchObject({ status: 401, code: 'Unauthenticated' });
    expect(answer.json['error'].message).toMatch(/login signature recovers to 0x[0-9a-fA-F]{40}, not the account/);
  });

  it('rotates refresh tokens', async () => {
    const pair = await login(h, newKey());
    const next = await h.post('/v1/auth/refresh', { refresh_token: pair.refresh_token });
    expect(tokenPairResponseSchema.parse(next.json).data.access_token).not.toBe(pair.access_token);
    const old = await h.post('/v1/auth/refresh', { refresh_token: pair.refresh_token });
    expect(errorOf(old)).toMatchObject({ status: 401, code: 'Unauthenticated' });
  });
});

describe('simulator REST: JWT trading and the operator-hub allowance', () => {
  it('refuses trading calls with neither permit nor token, or with a bad token', async () => {
    const none = await h.post('/v1/orders/place', limitOrder());
    expect(errorOf(none)).toMatchObject({ status: 401, code: 'Unauthenticated' });
    const bad = await h.post('/v1/orders/place', limitOrder(), { authorization: 'Bearer not.a.jwt' });
    expect(errorOf(bad)).toMatchObject({
      status: 401,
      code: 'Unauthenticated',
      message: 'Unauthenticated: invalid token',
    });
  });

  it('fails with AllowanceExpired(account, operator) until approve-single grants an allowance', async () => {
    const { account } = await h.trader();
    const { access_token } = await login(h, account);
    const auth = { authorization: `Bearer ${access_token}` };
    const refused = await h.post('/v1/orders/place', limitOrder(), auth);
    expect(refused.json['error'].message).toBe(
      `FailedPrecondition: PlaceOrder reverted: AllowanceExpired(${account.address},${h.operatorHub})`,
    );
    expect(parseVenueErrorText(refused.json['error'].message)).toMatchObject({
      kind: 'AllowanceExpired',
      args: [account.address, h.operatorHub],
    });
    const approve = await h.post(
      '/v1/auth/approve-single',
      await approveBody(h, account, { budget: 100n * USD, bit: 1 }),
    );
    expect(approve.json['data']).toMatchObject({ success: true });
    const placed = await h.post('/v1/orders/place', limitOrder(), auth);
    expect(placed.status).toBe(200);
    const open = (await h.get(`/v1/orders/open?account=${account.address}&market_id=1`)).json['data'];
    expect(open.total_orders).toBe('1');
  });

  it('accepts a base64 approve-single signature and spends the budget by fill notional', async () => {
    const { account } = await h.trader();
    const { access_token } = await login(h, account);
    const auth = { authorization: `Bearer ${access_token}` };
    const approve = await h.post(
      '/v1/auth/approve-single',
      await approveBody(h, account, { budget: 100n * USD, bit: 1, encoding: 'base64' }),
    );
    expect(approve.status).toBe(200);
    h.sim.controls.advanceBlocks(2);
    const fill = await h.post(
      '/v1/orders/place',
      limitOrder({ order_type: 0, time_in_force: 3, price_ticks: 900_000 }),
      auth,
    );
    expect(fill.status).toBe(200);
    const filled = Number(fill.json['data'].filled_quantity);
    expect(filled).toBeGreaterThan(0);
    const left = h.sim.controls.state().allowance(account.address)?.budgetWei ?? 0n;
    const spent = 100n * USD - left;
    // 0.0002 BTC at about 65,000 USD: a few USD to a few tens, never zero.
    expect(spent).toBeGreaterThan(1n * USD);
    expect(spent).toBeLessThan(40n * USD);
  });

  it('refuses approve-single with the wrong operator, signer or expiry', async () => {
    const key = newKey();
    const wrongOperator = await h.post(
      '/v1/auth/approve-single',
      await approveBody(h, key, { budget: USD, bit: 1, operator: h.router }),
    );
    expect(wrongOperator.json['error'].message).toBe(
      `FailedPrecondition: ApproveSingle reverted: InvalidOperator(${h.router})`,
    );
    const wrongSigner = await h.post(
      '/v1/auth/approve-single',
      await approveBody(h, key, { budget: USD, bit: 1, signedBy: newKey() }),
    );
    expect(wrongSigner.json['error'].message).toMatch(
      /^FailedPrecondition: ApproveSingle reverted: SignerNotAuthorized\(0x[0-9a-fA-F]{40}\)$/,
    );
    const past = await h.post(
      '/v1/auth/approve-single',
      await approveBody(h, key, { budget: USD, bit: 1, expiry: 1_000 }),
    );
    expect(errorOf(past)).toMatchObject({ status: 400, code: 'InvalidArgument' });
    const ok = await h.post('/v1/auth/approve-single', await approveBody(h, key, { budget: USD, bit: 1 }));
    expect(ok.status).toBe(200);
    const reused = await h.post('/v1/auth/approve-single', await approveBody(h, key, { budget: 2n * USD, bit: 1 }));
    expect(reused.json['error'].message).toBe('FailedPrecondition: ApproveSingle reverted: NonceUsed');
  });
});

describe('simulator REST: login and token lifetimes on an injected clock', () => {
  let manual: SimRestHarness;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    manual = await SimRestHarness.start({ seed: 14, blockMs: 0, clock });
  });
  afterAll(async () => {
    await manual.close();
  });

  it('expires login nonces after five minutes and access tokens after 900 s', async () => {
    const key = newKey();
    const nonce = await fetchNonce(manual, key.address);
    await clock.advance(5 * 60 * 1000);
    const now = Math.floor(clock.now() / 1000);
    const late = await manual.post('/v1/auth/login', await loginBody(manual, key, nonce, now + 60));
    expect(errorOf(late)).toEqual({ status: 401, code: 'Unauthenticated', message: 'Unauthenticated: nonce expired' });

    const { access_token } = await login(manual, key, now);
    const auth = { authorization: `Bearer ${access_token}` };
    expect(errorOf(await manual.post('/v1/orders/place', limitOrder(), auth)).message).toMatch(/is not registered/);
    await clock.advance(900 * 1000);
    const expired = await manual.post('/v1/orders/place', limitOrder(), auth);
    expect(errorOf(expired)).toEqual({
      status: 401,
      code: 'Unauthenticated',
      message: 'Unauthenticated: token expired',
    });
  });
});

describe('simulator REST: the operator-hub allowance runs out by budget or by expiry', () => {
  let sim: SimRestHarness;
  const clock = new ManualClock(Date.now());
  const nowSeconds = (): number => Math.floor(clock.now() / 1000);

  beforeAll(async () => {
    // No blocks: the book holds only what these tests place, so every fill is known exactly.
    sim = await SimRestHarness.start({ seed: 15, blockMs: 0, registrationLagMs: 0, clock });
  });
  afterAll(async () => {
    await sim.close();
  });

  /** 1 tick is 0.1 USD and 1 step 0.00001 BTC on market 1, read from GET /v1/markets. */
  async function notionalWei(ticks: number, steps: number): Promise<bigint> {
    const markets = (await sim.get('/v1/markets')).json['data'].markets as {
      market_id: string;
      config: { step_size: string; step_price: string };
    }[];
    const btc = markets.find((m) => m.market_id === '1');
    if (btc === undefined) throw new Error('market 1 missing');
    const price = BigInt(ticks) * parseUnits(btc.config.step_price, 18);
    return (price * BigInt(steps) * parseUnits(btc.config.step_size, 18)) / USD;
  }

  it('spends the budget by fill notional, then refuses orders with AllowanceExpired but still cancels', async () => {
    const maker = await sim.trader();
    const ask = limitOrder({ side: 1, size_steps: 200, price_ticks: 650_000 });
    expect((await sim.place(maker.signer, maker.account.address, ask, { anchor: 0n, bit: 1 })).status).toBe(200);
    const { account } = await sim.trader();
    const auth = { authorization: `Bearer ${(await login(sim, account, nowSeconds())).access_token}` };
    const budget = 50n * USD;
    expect(
      (
        await sim.post(
          '/v1/auth/approve-single',
          await approveBody(sim, account, { budget, bit: 1, expiry: nowSeconds() + 3600 }),
        )
      ).status,
    ).toBe(200);

    // A resting order trades nothing and spends nothing.
    const resting = await sim.post('/v1/orders/place', limitOrder({ price_ticks: 600_000 }), auth);
    expect(resting.status).toBe(200);
    expect(sim.sim.controls.state().allowance(account.address)?.budgetWei).toBe(budget);

    const first = await sim.post(
      '/v1/orders/place',
      limitOrder({ size_steps: 60, price_ticks: 650_000, time_in_force: 3 }),
      auth,
    );
    expect(first.json['data'].filled_percent).toBe(100);
    const left = budget - (await notionalWei(650_000, 60));
    expect(left).toBeGreaterThan(0n);
    expect(sim.sim.controls.state().allowance(account.address)?.budgetWei).toBe(left);

    // Budget left but less than this fill: the fill happens and the budget floors at zero.
    const second = await sim.post(
      '/v1/orders/place',
      limitOrder({ size_steps: 20, price_ticks: 650_000, time_in_force: 3 }),
      auth,
    );
    expect(await notionalWei(650_000, 20)).toBeGreaterThan(left);
    expect(second.json['data'].filled_percent).toBe(100);
    expect(sim.sim.controls.state().allowance(account.address)?.budgetWei).toBe(0n);

    const refused = await sim.post('/v1/orders/place', limitOrder({ price_ticks: 600_001 }), auth);
    expect(errorOf(refused)).toEqual({
      status: 400,
      code: 'FailedPrecondition',
      message: `FailedPrecondition: PlaceOrder reverted: AllowanceExpired(${account.address},${sim.operatorHub})`,
    });
    // A cancel trades nothing: an exhausted budget does not block it.
    const cancel = await sim.post('/v1/orders/cancel', { market_id: 1, order_id: resting.json['data'].order_id }, auth);
    expect(cancel.json['data']).toMatchObject({ success: true });
    expect((await sim.get(`/v1/orders/open?account=${account.address}&market_id=1`)).json['data'].total_orders).toBe(
      '0',
    );
  });

  it('refuses every JWT action with AllowanceExpired once the allowance expiry has passed, until a new approval', async () => {
    const { account } = await sim.trader();
    const auth = { authorization: `Bearer ${(await login(sim, account, nowSeconds())).access_token}` };
    const expiry = nowSeconds() + 30;
    expect(
      (
        await sim.post(
          '/v1/auth/approve-single',
          await approveBody(sim, account, { budget: 100n * USD, bit: 1, expiry }),
        )
      ).status,
    ).toBe(200);
    const placed = await sim.post('/v1/orders/place', limitOrder({ price_ticks: 600_000 }), auth);
    expect(placed.status).toBe(200);

    await clock.advance((expiry - nowSeconds()) * 1000 - 1000);
    expect(nowSeconds()).toBe(expiry - 1);
    expect((await sim.post('/v1/orders/place', limitOrder({ price_ticks: 600_001 }), auth)).status).toBe(200);
    await clock.advance(1000);
    expect(nowSeconds()).toBe(expiry);
    const refused = await sim.post('/v1/orders/place', limitOrder({ price_ticks: 600_002 }), auth);
    expect(refused.json['error'].message).toBe(
      `FailedPrecondition: PlaceOrder reverted: AllowanceExpired(${account.address},${sim.operatorHub})`,
    );
    const cancel = await sim.post('/v1/orders/cancel', { market_id: 1, order_id: placed.json['data'].order_id }, auth);
    expect(cancel.json['error'].message).toBe(
      `FailedPrecondition: CancelOrder reverted: AllowanceExpired(${account.address},${sim.operatorHub})`,
    );
    expect(parseVenueErrorText(cancel.json['error'].message)).toMatchObject({
      kind: 'AllowanceExpired',
      args: [account.address, sim.operatorHub],
    });

    const renewed = await sim.post(
      '/v1/auth/approve-single',
      await approveBody(sim, account, { budget: 100n * USD, bit: 2, expiry: nowSeconds() + 60 }),
    );
    expect(renewed.status).toBe(200);
    expect(
      (await sim.post('/v1/orders/cancel', { market_id: 1, order_id: placed.json['data'].order_id }, auth)).status,
    ).toBe(200);
  });
});
