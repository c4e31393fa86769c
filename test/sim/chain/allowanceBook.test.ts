import { describe, expect, it } from 'vitest';
import { AllowanceBook } from '../../../src/sim/chain/allowanceBook.js';

const account = '0x1111111111111111111111111111111111111111' as const;
const other = '0x2222222222222222222222222222222222222222' as const;
const operator = '0x3333333333333333333333333333333333333333' as const;
const USD = 10n ** 18n;

describe('AllowanceBook', () => {
  it('has no allowance, and nothing usable, before a grant', () => {
    const book = new AllowanceBook();
    expect(book.get(account)).toBeUndefined();
    expect(book.usable(account, 0)).toBe(false);
    expect(book.usable(account, 0, false)).toBe(false);
  });

  it('looks accounts up without regard to address case', () => {
    const book = new AllowanceBook();
    book.grant('0xabcdefabcdefabcdefabcdefabcdefabcdefabcd', { operator, budgetWei: USD, expiry: 100 });
    expect(book.get('0xABCDEFABCDEFABCDEFABCDEFABCDEFABCDEFABCD')).toEqual({ operator, budgetWei: USD, expiry: 100 });
    expect(book.usable('0xAbCdEfAbCdEfAbCdEfAbCdEfAbCdEfAbCdEfAbCd', 99)).toBe(true);
    expect(book.get(other)).toBeUndefined();
  });

  it('is usable strictly before its expiry second, whether or not budget is needed', () => {
    const book = new AllowanceBook();
    book.grant(account, { operator, budgetWei: USD, expiry: 1_000 });
    expect(book.usable(account, 999)).toBe(true);
    expect(book.usable(account, 1_000)).toBe(false);
    expect(book.usable(account, 1_001)).toBe(false);
    expect(book.usable(account, 999, false)).toBe(true);
    expect(book.usable(account, 1_000, false)).toBe(false);
  });

  it('spends fill notional, flooring the budget at zero, and an empty budget only blocks what needs it', () => {
    const book = new AllowanceBook();
    book.grant(account, { operator, budgetWei: 10n * USD, expiry: 1_000 });
    book.spend(account, 3n * USD);
    expect(book.get(account)).toEqual({ operator, budgetWei: 7n * USD, expiry: 1_000 });
    book.spend(account, 7n * USD - 1n);
    expect(book.get(account)?.budgetWei).toBe(1n);
    expect(book.usable(account, 0)).toBe(true);
    // A fill worth more than what is left already happened on-chain: the budget floors at 0.
    book.spend(account, 5n * USD);
    expect(book.get(account)?.budgetWei).toBe(0n);
    expect(book.usable(account, 0)).toBe(false);
    expect(book.usable(account, 0, false)).toBe(true);
    book.spend(account, 0n);
    expect(book.get(account)?.budgetWei).toBe(0n);
  });

  it('ignores spending by an account that holds no allowance', () => {
    const book = new AllowanceBook();
    book.spend(other, USD);
    expect(book.get(other)).toBeUndefined();
  });

  it('replaces the previous allowance on a new grant (budget and expiry)', () => {
    const book = new AllowanceBook();
    book.grant(account, { operator, budgetWei: USD, expiry: 100 });
    book.spend(account, USD);
    book.grant(account, { operator, budgetWei: 4n * USD, expiry: 200 });
    expect(book.get(account)).toEqual({ operator, budgetWei: 4n * USD, expiry: 200 });
    expect(book.usable(account, 150)).toBe(true);
  });
});
