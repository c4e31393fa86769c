import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastAnswerDecoder } from '../../../src/venue/rest/fastAnswers.js';
import { actionReceiptResponseSchema } from '../../../src/venue/schemas/restActionReceipt.js';
import { openOrdersResponseSchema, placeOrderResponseSchema } from '../../../src/venue/schemas/restOrders.js';
import { decimal, field, holdEqual } from '../ws/fastDecodeArbitraries.js';

/**
 * The order actions' answers are read by hand (`fastAnswers.ts`): each decoder must agree with its
 * zod schema on every answer, the same value (key order and all) when the schema accepts, a
 * refusal when it refuses. Answers are generated valid, then each field sometimes replaced by
 * arbitrary JSON or dropped, so both sides of every rule are exercised.
 */

const hexId = fc.oneof(
  { arbitrary: fc.bigInt({ min: 0n, max: 2n ** 192n }).map((n) => `0x${n.toString(16)}`), weight: 20 },
  { arbitrary: fc.bigInt({ min: 0n, max: 2n ** 64n }).map((n) => n.toString(16).toUpperCase()), weight: 5 },
  { arbitrary: fc.constantFrom('', '0x', '0xg1', ' 0x1', '0X1'), weight: 1 },
);
const txHash = fc.oneof(
  {
    arbitrary: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map((n) => `0x${n.toString(16).padStart(64, '0')}`),
    weight: 20,
  },
  {
    arbitrary: fc.constantFrom('', '0x', `0x${'a'.repeat(63)}`, `0x${'A'.repeat(64)}`, `${'a'.repeat(64)}`),
    weight: 3,
  },
);
const uintLoose = fc.oneof(
  { arbitrary: fc.nat(), weight: 10 },
  { arbitrary: fc.nat().map(String), weight: 10 },
  {
    arbitrary: fc.constantFrom(
      -1,
      1.5,
      -0,
      Number.MAX_SAFE_INTEGER,
      2 ** 53,
      '9007199254740993',
      '007',
      '-0',
      '',
      '1e3',
    ),
    weight: 2,
  },
);
const idLoose = fc.oneof(
  { arbitrary: fc.nat(), weight: 10 },
  { arbitrary: fc.bigInt({ min: 0n, max: 2n ** 80n }).map(String), weight: 10 },
  { arbitrary: fc.constantFrom(-1, 1.5, -0, 2 ** 53, '01', '', ' 1', '0'), weight: 2 },
);
const decimalOrEmpty = fc.oneof({ arbitrary: decimal, weight: 10 }, { arbitrary: fc.constant(''), weight: 3 });
const percent = fc.oneof(
  { arbitrary: decimalOrEmpty, weight: 10 },
  { arbitrary: fc.oneof(fc.nat({ max: 100 }), fc.double({ noNaN: true })), weight: 5 },
  { arbitrary: fc.constantFrom(1e21, 1e-7, -0, 0.5), weight: 1 },
);
const extra = fc.option(fc.jsonValue(), { nil: undefined });

const placeAnswer = fc.record(
  {
    data: field(
      fc.record(
        {
          order_id: field(hexId),
          tx_hash: field(txHash),
          block_number: field(uintLoose),
          sc_order_id: field(idLoose),
          filled_quantity: field(decimalOrEmpty),
          filled_percent: field(percent),
          message: field(fc.string()),
          unknown_key: extra,
        },
        { requiredKeys: ['order_id'] },
      ),
    ),
    request_id: field(fc.string()),
  },
  { requiredKeys: ['data'] },
);

const receiptAnswer = fc.record(
  {
    data: field(
      fc.record({
        success: field(fc.boolean()),
        tx_hash: field(txHash),
        block_number: field(uintLoose),
        unknown_key: extra,
      }),
    ),
    request_id: field(fc.string()),
  },
  { requiredKeys: ['data'] },
);

const decode = (schema: unknown) => (json: unknown) => fastAnswerDecoder(schema)?.(json);

describe('fast REST answer decoders', () => {
  it('read the place answer as placeOrderResponseSchema does', () => {
    const seen = holdEqual(placeAnswer, placeOrderResponseSchema, decode(placeOrderResponseSchema), { numRuns: 3000 });
    expect(seen.accepted).toBeGreaterThan(300);
    expect(seen.refused).toBeGreaterThan(300);
  });

  it('read the action receipt as actionReceiptResponseSchema does', () => {
    const seen = holdEqual(receiptAnswer, actionReceiptResponseSchema, decode(actionReceiptResponseSchema), {
      numRuns: 2000,
    });
    expect(seen.accepted).toBeGreaterThan(300);
    expect(seen.refused).toBeGreaterThan(300);
  });

  it('keep explicit undefined values and empty fills as the schema does', () => {
    const answer = { data: { order_id: '0xab', tx_hash: undefined, filled_quantity: '', filled_percent: '' } };
    const fast = decode(placeOrderResponseSchema)(answer);
    expect(fast).toStrictEqual(placeOrderResponseSchema.parse(answer));
    expect(Object.keys((fast as { data: object }).data)).toEqual([
      'order_id',
      'tx_hash',
      'filled_quantity',
      'filled_percent',
    ]);
  });

  it('leave every other answer to its schema', () => {
    expect(fastAnswerDecoder(openOrdersResponseSchema)).toBeUndefined();
  });
});
