import { describe, expect, it } from 'vitest';
import { positionsQuerySchema } from '../../../src/venue/schemas/restPortfolio.js';
import { limitParamSchema } from '../../../src/venue/schemas/restHistory.js';
import { tpslOrdersQuerySchema } from '../../../src/venue/schemas/restTpsl.js';

const ACCOUNT = '0x000000000000000000000000000000000000f00d';

/** Integers in a query are written as the venue writes them: no sign, no leading zero (the simulator is strict). */
describe('integers in the queries the simulator reads', () => {
  it('a positions page size of 1 to the maximum; none with a leading zero, zero, or past the maximum', () => {
    for (const page_size of ['1', '10'])
      expect(positionsQuerySchema.safeParse({ account: ACCOUNT, page_size }).success, page_size).toBe(true);
    for (const page_size of ['01', '0', '00', '99999'])
      expect(positionsQuerySchema.safeParse({ account: ACCOUNT, page_size }).success, page_size).toBe(false);
  });

  it('a history or TP/SL list limit without a leading zero', () => {
    expect(limitParamSchema.safeParse('50').success).toBe(true);
    for (const limit of ['01', '050', '0']) expect(limitParamSchema.safeParse(limit).success, limit).toBe(false);
  });

  it('TP/SL list times in nanoseconds: 0 or an integer without a leading zero', () => {
    const times = (start_time: string) => tpslOrdersQuerySchema.safeParse({ account: ACCOUNT, start_time }).success;
    expect(times('0')).toBe(true);
    expect(times('1796541794458000000')).toBe(true);
    expect(times('01')).toBe(false);
    expect(times('00')).toBe(false);
  });
});
