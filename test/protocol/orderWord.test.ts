import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderFlags, packOrderWord, unpackOrderWord, type OrderWordFields } from '../../src/protocol/orderWord.js';
import { OrderType, Side, StpMode, TimeInForce } from '../../src/protocol/enums.js';
import { InvalidValueError } from '../../src/core/invalidValueError.js';
import { arbUint } from './fixtures.js';

const base: OrderWordFields = {
  marketId: 1,
  sizeSteps: 150n,
  priceTicks: 650_005n,
  side: Side.Buy,
  postOnly: false,
  reduceOnly: false,
  stpMode: StpMode.ExpireMaker,
  orderType: OrderType.Limit,
  timeInForce: TimeInForce.GTC,
};

describe('orderFlags', () => {
  it.each([
    [{ side: Side.Sell }, 0b0010_0001],
    [{ postOnly: true }, 0b0010_0010],
    [{ reduceOnly: true }, 0b0010_0100],
    [{ stpMode: StpMode.ExpireTaker }, 0b0010_1000],
    [{ stpMode: StpMode.ExpireBoth }, 0b0011_0000],
    [{ orderType: OrderType.Market, timeInForce: TimeInForce.IOC }, 0b1100_0000],
    [{ timeInForce: TimeInForce.GTT }, 0b0110_0000],
    [{ timeInForce: TimeInForce.FOK }, 0b1010_0000],
  ] as const)('sets exactly the bits of %o', (change, flags) => {
    expect(orderFlags({ ...base, ...change })).toBe(flags);
  });
});

describe('packOrderWord', () => {
  it('places each field at the spec bit offsets with version 1 and reserved 0', () => {
    const word = packOrderWord(base);
    const expected = (1n << 70n) | (150n << 38n) | (650_005n << 14n) | (0b0010_0000n << 6n) | (1n << 1n);
    expect(word).toBe(expected);
    expect(word & 1n).toBe(0n);
    expect((word >> 1n) & 0x1fn).toBe(1n);
    expect(word < 1n << 88n).toBe(true);
  });

  it('round-trips every field at and between the bounds', () => {
    fc.assert(
      fc.property(
        arbUint(16),
        arbUint(32, 1n),
        arbUint(24),
        fc.constantFrom(0, 1),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom(0, 1, 2),
        fc.constantFrom(0, 1),
        fc.constantFrom(0, 1, 2, 3),
        (market, size, price, side, postOnly, reduceOnly, stp, type, tif) => {
          const fields: OrderWordFields = {
            marketId: Number(market),
            sizeSteps: size,
            priceTicks: price,
            side: side,
            postOnly,
            reduceOnly,
            stpMode: stp,
            orderType: type,
            timeInForce: tif,
          };
          expect(unpackOrderWord(packOrderWord(fields))).toEqual(fields);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['size_steps', { sizeSteps: 0n }, '1 to 4294967295'],
    ['size_steps', { sizeSteps: 1n << 32n }, '1 to 4294967295'],
    ['price_ticks', { priceTicks: 16_777_216n }, '0 to 16777215'],
    ['market_id', { marketId: 65_536 }, 'uint16'],
    ['side', { side: 2 as Side }, '0 (Buy), 1 (Sell)'],
    ['stp_mode', { stpMode: 3 as StpMode }, '0 (ExpireMaker), 1 (ExpireTaker), 2 (ExpireBoth)'],
    ['time_in_force', { timeInForce: 4 as TimeInForce }, '0 (GTC), 1 (GTT), 2 (FOK), 3 (IOC)'],
    ['order_type', { orderType: -1 as OrderType }, '0 (Market), 1 (Limit)'],
  ] as const)('refuses a bad %s with a typed error naming field, value and range', (field, change, allowed) => {
    const attempt = () => packOrderWord({ ...base, ...change });
    expect(attempt).toThrow(InvalidValueError);
    expect(attempt).toThrow(new RegExp(`^${field}: invalid value .*allowed: .*${allowed.replace(/[()]/g, '\\$&')}`));
  });

  it('refuses a word with a wrong version, a set reserved bit or more than 88 bits', () => {
    const word = packOrderWord(base);
    expect(() => unpackOrderWord(word | 1n)).toThrow(/orderData.reserved/);
    expect(() => unpackOrderWord(word ^ (1n << 2n))).toThrow(/orderData.version/);
    expect(() => unpackOrderWord(1n << 88n)).toThrow(/uint88/);
  });
});
