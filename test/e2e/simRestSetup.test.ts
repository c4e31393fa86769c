import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTypedData, recoverTypedDataAddress } from 'viem';
import { parseVenueErrorText } from '../../src/venue/venueError.js';
import {
  eip712DomainResponseSchema,
  marketsResponseSchema,
  nonceStateResponseSchema,
  registerSignerResponseSchema,
  sessionKeyStatusResponseSchema,
  systemConfigResponseSchema,
  depositResponseSchema,
  errorEnvelopeSchema,
} from '../../src/venue/schemas/restSchemas.js';
import {
  errorOf,
  eventually,
  digestOverTypeString,
  limitOrder,
  newKey,
  REVOKE_SIGNER_TYPES,
  SimRestHarness,
} from './simRestHarness.js';

let h: SimRestHarness;

beforeAll(async () => {
  h = await SimRestHarness.start({ seed: 11, registrationLagMs: 300 });
});
afterAll(async () => {
  await h.close();
});

describe('simulator REST: reads and envelopes', () => {
  it('serves the domain, the system config and the markets in the spec shapes', async () => {
    const domain = eip712DomainResponseSchema.parse((await h.get('/v1/auth/eip712-domain')).json);
    const config = systemConfigResponseSchema.parse((await h.get('/v1/system/config')).json);
    expect(domain.data.verifying_contract).toBe(config.data.addresses.auth);
    expect(config.data.addresses.router).not.toBe(config.data.addresses.auth);
    expect(config.data.addresses.operator_hub).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(config.data.chain?.chain_id).toBe(domain.data.chain_id);
    const markets = marketsResponseSchema.parse((await h.get('/v1/markets')).json);
    expect(markets.data.markets.find((m) => m.market_id === '1')?.config.name).toBe('BTC/USDC');
    expect((await h.get('/v1/markets')).json['request_id']).toMatch(/^sim-/);
  });

  it('answers unknown routes, wrong methods, bad JSON, non-objects and huge bodies with the error envelope', async () => {
    const cases = [
      [await h.get('/v1/nothing-here'), 404, 'NotFound'],
      [await h.get('/v1/orders/place'), 405, 'Unimplemented'],
      [await h.post('/v1/orders/place', '{"market_id": 1,'), 400, 'InvalidArgument'],
      [await h.post('/v1/orders/place', '[1,2]'), 400, 'InvalidArgument'],
      [await h.post('/v1/orders/place', ''), 400, 'InvalidArgument'],
      [await h.post('/v1/account/deposit', { account: 'x'.repeat(100_000), amount: '1' }), 413, 'InvalidArgument'],
    ] as const;
    for (const [answer, status, code] of cases) {
      expect(errorEnvelopeSchema.safeParse(answer.json).success).toBe(true);
      expect(errorOf(answer)).toMatchObject({ status, code });
      expect(answer.json['error'].message).toMatch(new RegExp(`^${code}: `));
      expect(JSON.stringify(answer.json)).not.toMatch(/at \w+ \(|\.ts:\d+/);
    }
  });

  it('names the field and the place of every malformed input', async () => {
    const badPath = await h.get('/v1/nonce-state/0x123');
    expect(errorOf(badPath)).toMatchObject({ status: 400, code: 'InvalidArgument' });
    expect(badPath.json['error'].message).toMatch(/invalid request path: account/);
    const badQuery = await h.get('/v1/auth/session-key-status?account=0x0000000000000000000000000000000000000001');
    expect(badQuery.json['error'].message).toMatch(/invalid request query: signer/);
    const badBody = await h.post('/v1/orders/place', { ...limitOrder(), size_steps: -1, side: 7 });
    expect(badBody.json['error'].message).toMatch(/invalid request body: .*size_steps/);
    expect(badBody.json['error'].message).toMatch(/side/);
    const tooWide = await h.post('/v1/orders/place', { ...limitOrder(), price_ticks: 16_777_216 });
    expect(tooWide.json['error'].message).toMatch(
      /price_ticks: out of range for uint24: got 16777216, allowed 0 to 16777215/,
    );
    const zeroSize = await h.post('/v1/orders/place', { ...limitOrder(), size_steps: 0 });
    expect(zeroSize.json['error'].message).toMatch(/^InvalidArgument: size_steps: invalid value 0/);
    const badOpen = await h.get('/v1/orders/open?account=0x0000000000000000000000000000000000000001&market_id=99');
    expect(badOpen.json['error'].message).toBe('InvalidArgument: unknown market_id 99');
  });
});

describe('simulator REST: faucet and registration lag', () => {
  it('pays 1000 USDC once and registers the account only after the lag', async () => {
    const account = newKey();
    const signer = newKey();
    expect((await h.registerSigner(account, signer, 0n, 0)).status).toBe(200);
    const deposit = await h.post('/v1/account/deposit', { account: account.address, amount: '1000' });
    expect(depositResponseSchema.parse(deposit.json).data).toMatchObject({ success: true, amount: '1000' });
    const early = await h.place(signer, account.address, limitOrder(), { anchor: 0n, bit: 1 });
    expect(errorOf(early)).toEqual({
      status: 400,
      code: 'FailedPrecondition',
      message: `FailedPrecondition: account ${account.address} is not registered (userId 0)`,
    });
    expect(parseVenueErrorText(early.json['error'].message).kind).toBe('AccountNotRegistered');
    // Retrying is correct: once indexed the same signed request goes through.
    const later = await eventually(
      () => h.place(signer, account.address, limitOrder(), { anchor: 0n, bit: 1 }),
      (answer) => answer.status === 200,
    );
    expect(later.status).toBe(200);
    expect(later.json['data'].order_id).toMatch(/^(0x)?[0-9a-f]+$/);
    const again = await h.post('/v1/account/deposit', { account: account.address, amount: '1000' });
    expect(errorOf(again)).toMatchObject({ status: 400, code: 'FailedPrecondition' });
    expect(again.json['error'].message).toMatch(/faucet already used/);
    const balance = await h.get(`/v1/account/cross-margin-balance?account=${account.address}`);
    expect(balance.json['data'].balance).toMatch(/^\d+(\.\d+)?$/);
  });

  it("refuses the faucet to the simulator's own bot wallets", async () => {
    const answer = await h.post('/v1/account/deposit', {
      account: '0x00000000000000000000000000000000000B0701',
      amount: '1000',
    });
    expect(errorOf(answer)).toMatchObject({ status: 400, code: 'FailedPrecondition' });
    expect(answer.json['error'].message).toMatch(/faucet refuses bot wallet/);
  });

  it('honours a longer lag set at run time', async () => {
    h.sim.controls.setRegistrationLag(60_000);
    try {
      const account = newKey();
      await h.post('/v1/account/deposit', { account: account.address, amount: '1000' });
      expect(h.sim.controls.state().isRegistered(account.address)).toBe(false);
      expect(h.sim.controls.state().registrationLagMs).toBe(60_000);
    } finally {
      h.sim.controls.setRegistrationLag(300);
    }
  });

  it('answers Internal for account reads of an account with no on-chain state', async () => {
    const answer = await h.get(`/v1/account/position?account=${newKey().address}&market_id=1`);
    expect(errorOf(answer)).toMatchObject({ status: 500, code: 'Internal' });
  });
});

describe('simulator REST: signers', () => {
  it('registers with both signatures, is idempotent, and consumes the setup nonce', async () => {
    const account = newKey();
    const signer = newKey();
    const first = registerSignerResponseSchema.parse((await h.registerSigner(account, signer, 1n, 5)).json);
    expect(first.data.success).toBe(true);
    expect(first.data.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const status = await h.get(`/v1/auth/session-key-status?account=${account.address}&signer=${signer.address}`);
    expect(sessionKeyStatusResponseSchema.parse(status.json).data).toEqual({ status: 1, status_description: 'Active' });
    const nonce = nonceStateResponseSchema.parse((await h.get(`/v1/nonce-state/${account.address}`)).json).data;
    expect(nonce).toEqual({ nonce_anchor: 1n, current_bitmap_index: 6, bitmap: String(1n << 5n) });
    // The same request again: already active, nothing sent on-chain, empty transaction hash.
    const again = registerSignerResponseSchema.parse((await h.registerSigner(account, signer, 1n, 5)).json);
    expect(again.data).toMatchObject({ success: true, transaction_hash: '' });
    // Another signer on a used pair: NonceUsed.
    const reuse = await h.registerSigner(account, newKey(), 1n, 5);
    expect(errorOf(reuse)).toMatchObject({
      status: 400,
      message: 'FailedPrecondition: RegisterSigner reverted: NonceUsed',
    });
  });

  it('refuses a registration whose signer signature is not the signer', async () => {
    const account = newKey();
    const signer = newKey();
    const answer = await h.registerSigner(account, signer, 0n, 0);
    const forged = { ...(await h.registerSignerBody(account, signer, 0n, 1)), signer: newKey().address };
    const wrong = await h.post('/v1/auth/register-signer', forged);
    expect(answer.status).toBe(200);
    expect(wrong.json['error'].message).toMatch(
      /^FailedPrecondition: RegisterSigner reverted: SignerNotAuthorized\(0x[0-9a-fA-F]{40}\)$/,
    );
  });

  it('revokes a signer (status 3), after which its permits are refused', async () => {
    const { account, signer } = await h.trader();
    expect((await h.place(signer, account.address, limitOrder(), { anchor: 0n, bit: 1 })).status).toBe(200);
    const revoke = await h.revokeSigner(account, signer.address, 0n, 2);
    expect(revoke.status).toBe(200);
    expect(revoke.json['data'].transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const status = await h.get(`/v1/auth/session-key-status?account=${account.address}&signer=${signer.address}`);
    expect(status.json['data']).toEqual({ status: 3, status_description: 'Revoked' });
    const refused = await h.place(signer, account.address, limitOrder(), { anchor: 0n, bit: 3 });
    expect(refused.json['error'].message).toBe(
      `FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(${signer.address})`,
    );
    // Registering again makes it Active again.
    expect((await h.registerSigner(account, signer, 0n, 4)).json['data'].transaction_hash).toMatch(/^0x/);
    expect((await h.place(signer, account.address, limitOrder(), { anchor: 0n, bit: 5 })).status).toBe(200);
  });

  it('refuses a revoke not signed by the account', async () => {
    const { account, signer } = await h.trader();
    const other = newKey();
    const answer = await h.revokeSigner(other, signer.address, 0n, 9);
    // Signed by `other` for `other`: that account never registered this signer.
    expect(answer.json['error'].message).toBe(
      `FailedPrecondition: RevokeSigner reverted: SignerNotRegistered(${signer.address})`,
    );
    const forged = await h.post('/v1/auth/revoke-signer', {
      ...(await h.revokeSignerBody(other, signer.address, 0n, 10)),
      account: account.address,
    });
    expect(forged.json['error'].message).toMatch(/^FailedPrecondition: RevokeSigner reverted: SignerNotAuthorized\(/);
  });

  it('refuses a revoke signed over a type string with a stray space, naming the address the signature recovers to', async () => {
    const { account, signer } = await h.trader();
    const message = { account: account.address, signer: signer.address, nonceAnchor: 0, nonceBitmap: 1 };
    const fields = REVOKE_SIGNER_TYPES.RevokeSigner.map(({ name, type }) => ({ type, value: message[name] }));
    const exact = 'RevokeSigner(address account,address signer,uint48 nonceAnchor,uint8 nonceBitmap)';
    // The hand-written digest is the real one for the exact string, so only the space differs.
    expect(digestOverTypeString(h.domain, exact, fields)).toBe(
      hashTypedData({ domain: h.domain, primaryType: 'RevokeSigner', types: REVOKE_SIGNER_TYPES, message }),
    );
    const account_signature = await account.sign({
      hash: digestOverTypeString(h.domain, exact.replace(',address signer', ', address signer'), fields),
    });
    const answer = await h.post('/v1/auth/revoke-signer', {
      account: account.address,
      signer: signer.address,
      nonce_anchor: '0',
      nonce_bitmap_index: 1,
      account_signature,
    });
    const named = await recoverTypedDataAddress({
      domain: h.domain,
      primaryType: 'RevokeSigner',
      types: REVOKE_SIGNER_TYPES,
      message,
      signature: account_signature,
    });
    expect(named).not.toBe(account.address);
    expect(errorOf(answer)).toEqual({
      status: 400,
      code: 'FailedPrecondition',
      message: `FailedPrecondition: RevokeSigner reverted: SignerNotAuthorized(${named})`,
    });
    const status = await h.get(`/v1/auth/session-key-status?account=${account.address}&signer=${signer.address}`);
    expect(status.json['data']).toEqual({ status: 1, status_description: 'Active' });
  });
});
