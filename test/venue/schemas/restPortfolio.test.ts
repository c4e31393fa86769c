import { describe, expect, it } from 'vitest';
import { positionsQuerySchema } from '../../../src/venue/schemas/restPortfolio.js';

const ACCOUNT = '0x000000000000000000000000000000000000f00d';

describe('positionsQuerySchema', () => {
  it('takes a page size of 1 to the maximum, written as the venue writes integers', () => {
    expect(positionsQuerySchema.safeParse({ account: ACCOUNT, page_size: '1' }).success).toBe(true);
    expect(positionsQuerySchema.safeParse({ account: ACCOUNT, page_size: '10' }).success).toBe(true);
  });

  it('refuses a page size with a leading zero, zero, or past the maximum', () => {
    for (const page_size of ['01', '0', '00', '99999'])
      expect(positionsQuerySchema.safeParse({ account: ACCOUNT, page_size }).success, page_size).toBe(false);
  });
});
