import { describe, expect, it } from 'vitest';
import { AccountRegistry } from '../../../src/sim/chain/accountRegistry.js';

const account = '0x1111111111111111111111111111111111111111' as const;

describe('AccountRegistry', () => {
  it('registers an account only after the lag has passed since its deposit', () => {
    const registry = new AccountRegistry(2000);
    expect(registry.isRegistered(account, 0)).toBe(false);
    registry.recordDeposit(account, 10_000);
    expect(registry.hasUsedFaucet(account)).toBe(true);
    expect(registry.isKnown(account)).toBe(true);
    expect(registry.isRegistered(account, 11_999)).toBe(false);
    expect(registry.isRegistered(account, 12_000)).toBe(true);
  });

  it('applies a changed lag to later deposits, and registerNow skips the lag', () => {
    const registry = new AccountRegistry(2000);
    registry.setRegistrationLag(50);
    expect(registry.registrationLagMs).toBe(50);
    registry.recordDeposit(account, 0);
    expect(registry.isRegistered(account, 49)).toBe(false);
    expect(registry.isRegistered(account, 50)).toBe(true);
    const other = '0x2222222222222222222222222222222222222222' as const;
    registry.registerNow(other, 5);
    expect(registry.isRegistered(other, 5)).toBe(true);
    expect(registry.hasUsedFaucet(other)).toBe(false);
  });

  it('keeps the first registration time when a second deposit arrives', () => {
    const registry = new AccountRegistry(1000);
    registry.recordDeposit(account, 0);
    registry.recordDeposit(account, 5000);
    expect(registry.isRegistered(account, 1000)).toBe(true);
  });
});
