import { describe, expect, it } from 'vitest';
import { nonceStateResponseSchema, systemConfigResponseSchema } from '../../../src/venue/schemas/restSystem.js';
import { eip712DomainResponseSchema } from '../../../src/venue/schemas/restAuth.js';
import { errorEnvelopeSchema } from '../../../src/venue/schemas/restEnvelope.js';
import { issuePaths } from './restIssuePaths.js';

const AUTH = '0x1111111111111111111111111111111111111111';
const ROUTER = '0x2222222222222222222222222222222222222222';

describe('system schemas', () => {
  it('parses the domain with chain_id as a string or a number', () => {
    const base = { name: 'Auth', version: '1', verifying_contract: AUTH };
    expect(
      eip712DomainResponseSchema.parse({ data: { ...base, chain_id: '11155931' }, request_id: 'r' }).data.chain_id,
    ).toBe(11155931n);
    expect(eip712DomainResponseSchema.parse({ data: { ...base, chain_id: 4153 } }).data.chain_id).toBe(4153n);
    expect(issuePaths(eip712DomainResponseSchema.safeParse({ data: { ...base, chain_id: '0x10' } }))).toEqual([
      'data.chain_id',
    ]);
  });

  it('parses the system config with its optional extras', () => {
    const minimal = systemConfigResponseSchema.parse({ data: { addresses: { auth: AUTH, router: ROUTER } } });
    expect(minimal.data.addresses.router).toBe(ROUTER);
    expect(minimal.data.chain).toBeUndefined();
    const full = systemConfigResponseSchema.parse({
      data: {
        addresses: { auth: AUTH, router: ROUTER, usdc: AUTH, operator_hub: ROUTER },
        chain: { chain_id: 11155931, name: 'testnet' },
        is_maintenance_mode: false,
        extra: 'ignored',
      },
    });
    expect(full.data.addresses.operator_hub).toBe(ROUTER);
    expect(full.data.chain?.chain_id).toBe(11155931n);
    expect(full.data.is_maintenance_mode).toBe(false);
    expect(issuePaths(systemConfigResponseSchema.safeParse({ data: { addresses: { auth: AUTH } } }))).toEqual([
      'data.addresses.router',
    ]);
  });

  it('parses the nonce state with the anchor as a uint48 bigint', () => {
    const parsed = nonceStateResponseSchema.parse({
      data: { nonce_anchor: '1234', current_bitmap_index: 17, bitmap: '131071' },
    });
    expect(parsed.data).toEqual({ nonce_anchor: 1234n, current_bitmap_index: 17, bitmap: '131071' });
    // A string on the wire; a number is read too (venue-wire.md §4.4), a fraction is not.
    expect(
      nonceStateResponseSchema.parse({ data: { nonce_anchor: 1234, current_bitmap_index: '17', bitmap: '0' } }).data,
    ).toMatchObject({ nonce_anchor: 1234n, current_bitmap_index: 17 });
    expect(
      issuePaths(
        nonceStateResponseSchema.safeParse({ data: { nonce_anchor: 12.5, current_bitmap_index: 17, bitmap: '0' } }),
      ),
    ).toEqual(['data.nonce_anchor']);
  });

  it('parses the error envelope', () => {
    expect(
      errorEnvelopeSchema.parse({ error: { code: 'InvalidArgument', message: 'InvalidArgument: x' }, request_id: 'r' })
        .error.code,
    ).toBe('InvalidArgument');
    expect(issuePaths(errorEnvelopeSchema.safeParse({ error: { code: 'X' } }))).toEqual(['error.message']);
  });
});
