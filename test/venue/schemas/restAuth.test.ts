import { describe, expect, it } from 'vitest';
import {
  approveSingleRequestSchema,
  loginNonceResponseSchema,
  loginRequestSchema,
  normalizeLoginNonce,
  refreshRequestSchema,
  registerSignerRequestSchema,
  registerSignerResponseSchema,
  revokeSignerRequestSchema,
  revokeSignerResponseSchema,
  sessionKeyStatusResponseSchema,
  tokenPairResponseSchema,
} from '../../../src/venue/schemas/restAuth.js';
import { issuePaths } from './restIssuePaths.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';
const SIGNER = '0x2222222222222222222222222222222222222222';
const HEX_SIG = `0x${'1b'.repeat(65)}`;
const TX = `0x${'cd'.repeat(32)}`;
const NONCE64 = 'A'.repeat(64);

describe('login nonce', () => {
  it('accepts data.nonce and top-level nonce, with or without 0x, and normalises', () => {
    expect(loginNonceResponseSchema.parse({ data: { nonce: `0x${NONCE64}` } })).toEqual({
      nonce: `0x${'a'.repeat(64)}`,
    });
    expect(loginNonceResponseSchema.parse({ nonce: NONCE64 })).toEqual({ nonce: `0x${'a'.repeat(64)}` });
    expect(loginNonceResponseSchema.parse({ nonce: '0XBEEF' })).toEqual({ nonce: '0xbeef' });
    expect(normalizeLoginNonce('Ab12')).toBe('0xab12');
  });

  it('prefers data.nonce when both are present', () => {
    expect(loginNonceResponseSchema.parse({ nonce: 'aa', data: { nonce: 'bb' } })).toEqual({ nonce: '0xbb' });
  });

  it('refuses a missing, non-hex or over-long nonce', () => {
    expect(issuePaths(loginNonceResponseSchema.safeParse({ data: {} }))).toEqual(['nonce']);
    expect(issuePaths(loginNonceResponseSchema.safeParse({ nonce: 'xyz' }))).toEqual(['nonce']);
    expect(issuePaths(loginNonceResponseSchema.safeParse({ data: { nonce: `0x${NONCE64}0` } }))).toEqual([
      'data.nonce',
    ]);
  });
});

describe('signer setup schemas', () => {
  const register = {
    account: ACCOUNT,
    signer: SIGNER,
    message: 'register bot key',
    expiration: '1800000000',
    nonce_anchor: '5',
    nonce_bitmap_index: 3,
    account_signature: HEX_SIG,
    signer_signature: HEX_SIG,
  };

  it('parses the register-signer body with the uint32 expiration and uint48 anchor as bigints', () => {
    const parsed = registerSignerRequestSchema.parse(register);
    expect(parsed.expiration).toBe(1_800_000_000n);
    expect(parsed.nonce_anchor).toBe(5n);
    expect(issuePaths(registerSignerRequestSchema.safeParse({ ...register, expiration: 1800000000 }))).toEqual([
      'expiration',
    ]);
    expect(issuePaths(registerSignerRequestSchema.safeParse({ ...register, expiration: '4294967296' }))).toEqual([
      'expiration',
    ]);
    expect(issuePaths(registerSignerRequestSchema.safeParse({ ...register, signer_signature: 'abc' }))).toEqual([
      'signer_signature',
    ]);
  });

  it('parses the register answer including the idempotent empty transaction hash', () => {
    expect(
      registerSignerResponseSchema.parse({ data: { success: true, transaction_hash: '' } }).data.transaction_hash,
    ).toBe('');
    const full = registerSignerResponseSchema.parse({
      data: { success: true, transaction_hash: TX, status: 'confirmed', block_number: 9 },
    });
    expect(full.data.block_number).toBe(9);
    expect(issuePaths(registerSignerResponseSchema.safeParse({ data: { success: true } }))).toEqual([
      'data.transaction_hash',
    ]);
  });

  it('parses revoke bodies and answers', () => {
    const { message: _m, expiration: _e, signer_signature: _s, ...revoke } = register;
    expect(revokeSignerRequestSchema.parse(revoke).nonce_anchor).toBe(5n);
    expect(issuePaths(revokeSignerRequestSchema.safeParse({ ...revoke, signer: 'nope' }))).toEqual(['signer']);
    expect(revokeSignerResponseSchema.parse({ data: { success: true, transaction_hash: TX } }).data.success).toBe(true);
  });

  it('parses the session key status', () => {
    expect(
      sessionKeyStatusResponseSchema.parse({ data: { status: 1, status_description: 'Active' } }).data.status,
    ).toBe(1);
    // An int on the wire; its string is read too (venue-wire.md §4.4, protojson).
    expect(
      sessionKeyStatusResponseSchema.parse({ data: { status: '1', status_description: 'Active' } }).data.status,
    ).toBe(1);
    expect(
      issuePaths(
        sessionKeyStatusResponseSchema.safeParse({ data: { status: 'Active', status_description: 'Active' } }),
      ),
    ).toEqual(['data.status']);
  });
});

describe('JWT schemas', () => {
  it('parses login bodies and token answers', () => {
    const login = { account: ACCOUNT, nonce: `0x${NONCE64}`, deadline: 1_700_000_300, signature: HEX_SIG };
    expect(loginRequestSchema.parse(login).deadline).toBe(1_700_000_300);
    expect(issuePaths(loginRequestSchema.safeParse({ ...login, deadline: -1 }))).toEqual(['deadline']);
    const tokens = tokenPairResponseSchema.parse({
      data: { access_token: 'a.b.c', refresh_token: 'r', expires_in: 900 },
    });
    expect(tokens.data.expires_in).toBe(900);
    expect(issuePaths(tokenPairResponseSchema.safeParse({ data: { access_token: 'a.b.c', expires_in: 900 } }))).toEqual(
      ['data.refresh_token'],
    );
    expect(refreshRequestSchema.safeParse({ refresh_token: '' }).success).toBe(false);
  });

  it('parses approve-single with a hex or base64 signature and a uint96 budget', () => {
    const body = {
      account: ACCOUNT,
      operator: SIGNER,
      budget: '1000000000000000000000',
      allowance_expiry: 1_800_000_000,
      nonce_anchor: '6',
      nonce_bitmap_index: 0,
      signature: HEX_SIG,
    };
    expect(approveSingleRequestSchema.parse(body).budget).toBe(1000n * 10n ** 18n);
    expect(
      approveSingleRequestSchema.safeParse({ ...body, signature: Buffer.alloc(65, 2).toString('base64') }).success,
    ).toBe(true);
    expect(issuePaths(approveSingleRequestSchema.safeParse({ ...body, budget: (1n << 96n).toString() }))).toEqual([
      'budget',
    ]);
    expect(issuePaths(approveSingleRequestSchema.safeParse({ ...body, budget: '1.5' }))).toEqual(['budget']);
  });
});
