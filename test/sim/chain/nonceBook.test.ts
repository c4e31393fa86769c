import { describe, expect, it } from 'vitest';
import { NonceBook } from '../../../src/sim/chain/nonceBook.js';
import { parseVenueErrorText } from '../../../src/venue/venueError.js';

const account = '0x1111111111111111111111111111111111111111' as const;

function errorText(book: NonceBook, anchor: bigint, bit: number): string | undefined {
  return book.check(account, anchor, bit, 'PlaceOrder')?.text;
}

describe('NonceBook', () => {
  it('starts at anchor 0 with an empty bitmap', () => {
    expect(new NonceBook().state(account)).toEqual({ anchor: 0n, bitmap: 0n, currentIndex: 0 });
  });

  it('consumes a bit of the current anchor once, then answers NonceUsed', () => {
    const book = new NonceBook();
    book.consume(account, 0n, 5, 'PlaceOrder');
    expect(book.state(account)).toEqual({ anchor: 0n, bitmap: 1n << 5n, currentIndex: 6 });
    expect(errorText(book, 0n, 5)).toBe('FailedPrecondition: PlaceOrder reverted: NonceUsed');
    expect(parseVenueErrorText(errorText(book, 0n, 5) ?? '').kind).toBe('NonceUsed');
    expect(errorText(book, 0n, 4)).toBeUndefined();
  });

  it('moves to current + 1 with a fresh bitmap and forgets the old anchor', () => {
    const book = new NonceBook();
    book.consume(account, 0n, 3, 'PlaceOrder');
    book.consume(account, 1n, 0, 'PlaceOrder');
    expect(book.state(account)).toEqual({ anchor: 1n, bitmap: 1n, currentIndex: 1 });
    // Bit 3 was used under anchor 0, not under anchor 1.
    expect(errorText(book, 1n, 3)).toBeUndefined();
    // The old anchor is now neither current nor current + 1.
    expect(errorText(book, 0n, 7)).toBe('FailedPrecondition: PlaceOrder reverted: InvalidNonceAnchor');
  });

  it('refuses anchors beyond current + 1', () => {
    const book = new NonceBook();
    const text = errorText(book, 2n, 0);
    expect(text).toBe('FailedPrecondition: PlaceOrder reverted: InvalidNonceAnchor');
    expect(parseVenueErrorText(text ?? '').kind).toBe('InvalidNonceAnchor');
  });

  it('refuses bit indexes above 207 with the index in the message', () => {
    const book = new NonceBook();
    expect(errorText(book, 0n, 207)).toBeUndefined();
    const text = errorText(book, 0n, 208);
    expect(text).toBe('FailedPrecondition: PlaceOrder reverted: InvalidNonceIndex(208)');
    expect(parseVenueErrorText(text ?? '')).toMatchObject({ kind: 'InvalidNonceIndex', args: ['208'] });
    expect(() => book.consume(account, 0n, 255, 'PlaceOrder')).toThrow(/InvalidNonceIndex\(255\)/);
  });

  it('keeps accounts apart and ignores address case', () => {
    const book = new NonceBook();
    book.consume(account, 1n, 0, 'RegisterSigner');
    expect(book.state('0x2222222222222222222222222222222222222222').anchor).toBe(0n);
    expect(book.check(account.toUpperCase().replace('0X', '0x') as `0x${string}`, 1n, 0, 'X')?.text).toBe(
      'FailedPrecondition: X reverted: NonceUsed',
    );
  });

  it('reports the bitmap as the set of consumed bits and the index one past the highest', () => {
    const book = new NonceBook();
    for (const bit of [0, 2, 200]) book.consume(account, 0n, bit, 'PlaceOrder');
    const state = book.state(account);
    expect(state.bitmap).toBe((1n << 200n) | 4n | 1n);
    expect(state.currentIndex).toBe(201);
  });
});
