import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseInput } from '../../../src/sim/rest/parseInput.js';
import { SimRefusal } from '../../../src/sim/simRefusal.js';
import { leverageRequestSchema, isolatedMarginRequestSchema } from '../../../src/venue/schemas/restAccount.js';
import { placeOrderRequestSchema } from '../../../src/venue/schemas/restOrders.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';
const PERMIT = {
  account: ACCOUNT,
  signer: ACCOUNT,
  nonce_anchor: '0',
  nonce_bitmap_index: 0,
  deadline: 1,
  signature: `${'A'.repeat(86)}==`,
};

function refusal(run: () => unknown): SimRefusal {
  try {
    run();
  } catch (error) {
    if (error instanceof SimRefusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseInput', () => {
  it.each(['abc', '<script>', '1e3', '0x', '１'])(
    'a market_id string %j that is not a numeric id is a 400 naming the field, the rule and the value',
    (bad) => {
      for (const schema of [leverageRequestSchema, isolatedMarginRequestSchema]) {
        const error = refusal(() =>
          parseInput(schema, { market_id: bad, leverage: '2', amount: '1', permit_params: PERMIT }, 'body'),
        );
        expect(error).toMatchObject({ httpStatus: 400, status: 'InvalidArgument' });
        expect(error.text).toBe(
          `InvalidArgument: invalid request body: market_id: expected a numeric id string without leading zeros (got ${JSON.stringify(bad)})`,
        );
      }
    },
  );

  it('a schema that throws while converting is still a 400 naming the field and the value, never a 500', () => {
    const converting = z.strictObject({ market_id: z.string().refine((v) => BigInt(v) >= 0n) });
    const error = refusal(() => parseInput(converting, { market_id: 'abc' }, 'body'));
    expect(error).toMatchObject({ httpStatus: 400, status: 'InvalidArgument' });
    expect(error.text).toBe('InvalidArgument: invalid request body: market_id: not a valid value (got "abc")');
  });

  it('names every field (up to four) with the value it had, nested paths included', () => {
    const error = refusal(() =>
      parseInput(
        leverageRequestSchema,
        { market_id: 7, leverage: '2x', permit_params: { ...PERMIT, account: null } },
        'body',
      ),
    );
    expect(error.httpStatus).toBe(400);
    expect(error.text).toMatch(
      /^InvalidArgument: invalid request body: market_id: .* \(got 7\); leverage: expected a base-10 integer string \(got "2x"\); permit_params\.account: .* \(got null\)$/,
    );
  });

  it('says "nothing" for a missing field and counts issues beyond four', () => {
    const error = refusal(() => parseInput(placeOrderRequestSchema, {}, 'body'));
    expect(error.text).toMatch(/^InvalidArgument: invalid request body: market_id: .* \(got nothing\);/);
    expect(error.text).toMatch(/; and 5 more$/);
  });

  it('never echoes a signature, cuts long strings and describes containers without serialising them', () => {
    const deep: unknown = JSON.parse(`${'['.repeat(30_000)}${']'.repeat(30_000)}`);
    const schema = z.object({ signature: z.number(), note: z.number(), list: z.string(), nested: z.string() });
    const error = refusal(() =>
      parseInput(
        schema,
        { signature: 'secret-signature-text', note: 'x'.repeat(500), list: deep, nested: { a: 1 } },
        'body',
      ),
    );
    expect(error.text).not.toContain('secret-signature-text');
    expect(error.text).toContain(
      'signature: Invalid input: expected number, received string (got a value of 21 chars (not shown))',
    );
    expect(error.text).toContain(
      `note: Invalid input: expected number, received string (got "${'x'.repeat(60)}…" (500 chars))`,
    );
    expect(error.text).toContain('list: Invalid input: expected string, received array (got an array of 1 item)');
    expect(error.text).toContain('nested: Invalid input: expected string, received object (got an object)');
  });

  it('reads "__proto__" and "constructor" keys as data, never from the prototype', () => {
    const body = JSON.parse('{"__proto__": {"market_id": "1"}, "constructor": 1}') as unknown;
    const error = refusal(() => parseInput(leverageRequestSchema, body, 'body'));
    expect(error.text).toMatch(/market_id: .* \(got nothing\)/);
    expect(({} as Record<string, unknown>)['market_id']).toBeUndefined();
  });

  it('passes a valid input through with its conversions', () => {
    expect(parseInput(leverageRequestSchema, { market_id: '1', leverage: '5' }, 'body')).toEqual({
      market_id: '1',
      leverage: 5n,
    });
  });
});
