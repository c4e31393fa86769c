import { describe, expect, it } from 'vitest';
import { SignerRegistry, signerStatusDescription } from '../../../src/sim/chain/signerRegistry.js';

const account = '0x1111111111111111111111111111111111111111' as const;
const signer = '0x2222222222222222222222222222222222222222' as const;

describe('SignerRegistry', () => {
  it('moves a signer from not registered to Active (1) to Revoked (3) and back to Active', () => {
    const registry = new SignerRegistry();
    expect(registry.status(account, signer)).toBe(0);
    registry.activate(account, signer);
    expect(registry.status(account, signer)).toBe(1);
    expect(registry.isActive(account, signer)).toBe(true);
    registry.revoke(account, signer);
    expect(registry.status(account, signer)).toBe(3);
    expect(registry.isActive(account, signer)).toBe(false);
    registry.activate(account, signer);
    expect(registry.status(account, signer)).toBe(1);
  });

  it('binds a signer to one account only', () => {
    const registry = new SignerRegistry();
    registry.activate(account, signer);
    expect(registry.status(signer, account)).toBe(0);
    expect(registry.isActive('0x3333333333333333333333333333333333333333', signer)).toBe(false);
  });

  it('describes the statuses', () => {
    expect([0, 1, 3].map((s) => signerStatusDescription(s as 0 | 1 | 3))).toEqual([
      'NotRegistered',
      'Active',
      'Revoked',
    ]);
  });
});
