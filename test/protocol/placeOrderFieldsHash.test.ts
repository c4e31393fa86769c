import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeOrderHash } from '../../src/protocol/actionHashes.js';
import { packOrderWord, type OrderWordFields } from '../../src/protocol/orderWord.js';
import {
  checkOrderWordFields,
  placeOrderFieldsHash,
  type PlaceOrderFields,
} from '../../src/protocol/placeOrderFieldsHash.js';
import { RISE_SELECTORS, SPEC_SELECTORS } from '../../src/protocol/selectors.js';

/** The general path: pack the uint88 order word with bigints, then hash the words. */
function generalHash(f: PlaceOrderFields, selectors = SPEC_SELECTORS): string {
  const orderWord = packOrderWord({
    marketId: f.marketId,
    sizeSteps: BigInt(f.sizeSteps),
    priceTicks: BigInt(f.priceTicks),
    side: f.side as OrderWordFields['side'],
    postOnly: f.postOnly,
    reduceOnly: f.reduceOnly,
    stpMode: f.stpMode as OrderWordFields['stpMode'],
    orderType: f.orderType as OrderWordFields['orderType'],
    timeInForce: f.timeInForce as OrderWordFields['timeInForce'],
  });
  return placeOrderHash(
    {
      orderWord,
      ...(f.builderId === undefined ? {} : { builderId: f.builderId }),
      ...(f.builderFeeBps === undefined ? {} : { builderFeeBps: f.builderFeeBps }),
      ...(f.clientOrderId === undefined ? {} : { clientOrderId: f.clientOrderId }),
      ...(f.ttlUnits === undefined ? {} : { ttlUnits: f.ttlUnits }),
    },
    selectors,
  );
}

const edge = (max: number, min = 0) => fc.oneof(fc.constantFrom(min, min + 1, max - 1, max), fc.integer({ min, max }));

const validFields: fc.Arbitrary<PlaceOrderFields> = fc.record(
  {
    marketId: edge(0xffff),
    sizeSteps: edge(0xffff_ffff, 1),
    priceTicks: edge(0xff_ffff),
    side: fc.constantFrom(0, 1),
    postOnly: fc.boolean(),
    reduceOnly: fc.boolean(),
    stpMode: fc.constantFrom(0, 1, 2),
    orderType: fc.constantFrom(0, 1),
    timeInForce: fc.constantFrom(0, 1, 2, 3),
    builderId: edge(0xffff),
    builderFeeBps: edge(0xffff),
    clientOrderId: fc.oneof(fc.constantFrom(0n, 1n, (1n << 64n) - 1n), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n })),
    ttlUnits: edge(0xffff),
  },
  {
    requiredKeys: [
      'marketId',
      'sizeSteps',
      'priceTicks',
      'side',
      'postOnly',
      'reduceOnly',
      'stpMode',
      'orderType',
      'timeInForce',
    ],
  },
);

const inRange: PlaceOrderFields = {
  marketId: 1,
  sizeSteps: 15,
  priceTicks: 585_000,
  side: 0,
  postOnly: true,
  reduceOnly: false,
  stpMode: 0,
  orderType: 1,
  timeInForce: 0,
};
/** One field out of range each: those packed into the order word, then the words after it. */
const wordFaults: readonly Partial<PlaceOrderFields>[] = [
  { sizeSteps: 0 },
  { sizeSteps: 2 ** 32 },
  { priceTicks: 2 ** 24 },
  { marketId: 65_536 },
  { side: 2 },
  { stpMode: 3 },
  { timeInForce: 4 },
  { sizeSteps: 1.5 },
];
const optionalFaults: readonly Partial<PlaceOrderFields>[] = [
  { clientOrderId: 1n << 64n },
  { ttlUnits: 65_536 },
  { builderId: 65_536 },
  { builderFeeBps: 65_536 },
];
const shown = (fault: Partial<PlaceOrderFields>) =>
  JSON.stringify(fault, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

/** The general path's error on `fields` (it must refuse them). */
function generalError(fields: PlaceOrderFields): Error {
  try {
    generalHash(fields);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`the general path accepted ${shown(fields)}`);
}

describe('placeOrderFieldsHash', () => {
  it('equals packOrderWord + placeOrderHash on every field in range, with and without the optional ones', () => {
    fc.assert(
      fc.property(validFields, fc.boolean(), (fields, rise) => {
        const selectors = rise ? RISE_SELECTORS : SPEC_SELECTORS;
        expect(placeOrderFieldsHash(fields, selectors)).toBe(generalHash(fields, selectors));
      }),
      { numRuns: 2_000 },
    );
  });

  it('owes nothing to the order hashed before (its words are written into one reused buffer)', () => {
    fc.assert(
      fc.property(validFields, validFields, fc.boolean(), (before, fields, rise) => {
        const selectors = rise ? RISE_SELECTORS : SPEC_SELECTORS;
        placeOrderFieldsHash(before, rise ? SPEC_SELECTORS : RISE_SELECTORS);
        expect(placeOrderFieldsHash(fields, selectors)).toBe(generalHash(fields, selectors));
      }),
      { numRuns: 1_000 },
    );
  });

  it('refuses what the general path refuses, with the same error', () => {
    for (const fault of [...wordFaults, ...optionalFaults]) {
      const fields = { ...inRange, ...fault };
      expect(() => placeOrderFieldsHash(fields), shown(fault)).toThrow(generalError(fields).message);
    }
  });
});

describe('checkOrderWordFields', () => {
  it('passes every order in range', () => {
    fc.assert(
      fc.property(validFields, (fields) => {
        expect(() => checkOrderWordFields(fields)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  it("refuses an order-word field out of range with packOrderWord's error, and leaves the later words to the hash", () => {
    for (const fault of wordFaults) {
      const fields = { ...inRange, ...fault };
      expect(() => checkOrderWordFields(fields), shown(fault)).toThrow(generalError(fields).message);
    }
    for (const fault of optionalFaults) expect(() => checkOrderWordFields({ ...inRange, ...fault })).not.toThrow();
  });
});
