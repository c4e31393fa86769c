import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeAbiParameters, keccak256, toHex, type AbiParameter } from 'viem';
import {
  cancelAllOrdersHash,
  cancelOrderHash,
  placeOrderHash,
  placeOrderHeaderFlags,
  updateIsolatedMarginHash,
  updateLeverageHash,
  updateMarginModeHash,
} from '../../src/protocol/actionHashes.js';
import { RISE_SELECTORS, SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import { InvalidValueError } from '../../src/core/invalidValueError.js';
import { arbUint } from './fixtures.js';

/** The reference: viem's ABI encoding of the selector word and the operands, then keccak. */
function reference(selector: string, params: { type: string; value: bigint }[]): string {
  const types: AbiParameter[] = [{ type: 'bytes32' }, ...params.map((p) => ({ type: p.type }))];
  return keccak256(encodeAbiParameters(types, [keccak256(toHex(selector)), ...params.map((p) => p.value)]));
}

describe('action hashes equal viem ABI encoding', () => {
  it('place order, with and without each optional value and the builder-fee slot', () => {
    fc.assert(
      fc.property(
        arbUint(88),
        fc.oneof(fc.constant(0n), arbUint(16)),
        fc.oneof(fc.constant(0n), arbUint(16)),
        fc.oneof(fc.constant(0n), arbUint(64)),
        fc.oneof(fc.constant(0n), arbUint(16)),
        (word, builder, fee, coid, ttl) => {
          const header = placeOrderHeaderFlags({
            builderId: Number(builder),
            clientOrderId: coid,
            ttlUnits: Number(ttl),
          });
          const params = [
            { type: 'uint8', value: BigInt(header) },
            { type: 'uint88', value: word },
            { type: 'uint16', value: builder },
            ...(fee > 0n ? [{ type: 'uint16', value: fee }] : []),
            { type: 'uint64', value: coid },
            { type: 'uint16', value: ttl },
          ];
          const input = {
            orderWord: word,
            builderId: Number(builder),
            builderFeeBps: Number(fee),
            clientOrderId: coid,
            ttlUnits: Number(ttl),
          };
          expect(placeOrderHash(input)).toBe(reference(SPEC_SELECTORS.placeOrder, params));
          expect(placeOrderHash(input, RISE_SELECTORS)).toBe(reference(RISE_SELECTORS.placeOrder, params));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('header flags: 0x01 always, 0x02 builder, 0x04 client order id, 0x10 ttl', () => {
    expect(placeOrderHeaderFlags({})).toBe(0x01);
    expect(placeOrderHeaderFlags({ builderId: 3 })).toBe(0x03);
    expect(placeOrderHeaderFlags({ clientOrderId: 9n })).toBe(0x05);
    expect(placeOrderHeaderFlags({ ttlUnits: 4 })).toBe(0x11);
    expect(placeOrderHeaderFlags({ builderId: 1, clientOrderId: 1n, ttlUnits: 1, builderFeeBps: 5 })).toBe(0x17);
  });

  it('absent optionals hash as zero words', () => {
    expect(placeOrderHash({ orderWord: 12345n })).toBe(
      placeOrderHash({ orderWord: 12345n, builderId: 0, builderFeeBps: 0, clientOrderId: 0n, ttlUnits: 0 }),
    );
  });

  it('cancel, cancel-all, leverage, margin mode, isolated margin', () => {
    fc.assert(
      fc.property(
        arbUint(16),
        arbUint(256),
        fc.integer({ min: 1, max: 255 }),
        fc.constantFrom(0, 1),
        fc.bigInt({ min: -(1n << 127n), max: (1n << 127n) - 1n }),
        (m, resting, lev, mode, amount) => {
          expect(cancelOrderHash(m, resting)).toBe(
            reference(SPEC_SELECTORS.cancelOrder, [
              { type: 'uint256', value: m },
              { type: 'uint256', value: resting },
            ]),
          );
          expect(cancelAllOrdersHash(m)).toBe(
            reference(SPEC_SELECTORS.cancelAllOrders, [{ type: 'uint256', value: m }]),
          );
          expect(updateLeverageHash(Number(m), lev)).toBe(
            reference(SPEC_SELECTORS.updateLeverage, [
              { type: 'uint16', value: m },
              { type: 'uint8', value: BigInt(lev) },
            ]),
          );
          expect(updateMarginModeHash(Number(m), mode)).toBe(
            reference(SPEC_SELECTORS.updateMarginMode, [
              { type: 'uint16', value: m },
              { type: 'uint8', value: BigInt(mode) },
            ]),
          );
          expect(updateIsolatedMarginHash(Number(m), amount)).toBe(
            reference(SPEC_SELECTORS.updateIsolatedMargin, [
              { type: 'uint16', value: m },
              { type: 'int128', value: amount },
            ]),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['leverage 0', () => updateLeverageHash(1, 0), /^leverage: invalid value 0; allowed: 1 to 255$/],
    ['leverage 256', () => updateLeverageHash(1, 256), /^leverage: invalid value 256; allowed: 1 to 255$/],
    [
      'amount beyond int128',
      () => updateIsolatedMarginHash(1, 1n << 127n),
      /^amount: invalid value 170141183460469231731687303715884105728; allowed: int128/,
    ],
    [
      'amount below int128',
      () => updateIsolatedMarginHash(1, -(1n << 127n) - 1n),
      /^amount: invalid value -170141183460469231731687303715884105729/,
    ],
    [
      'margin mode 2',
      () => updateMarginModeHash(1, 2 as 0),
      /^margin_mode: invalid value 2; allowed: 0 \(Cross\), 1 \(Isolated\)$/,
    ],
    ['market id 65536', () => updateLeverageHash(65_536, 2), /^market_id: invalid value 65536; allowed: uint16/],
    ['order word beyond uint88', () => placeOrderHash({ orderWord: 1n << 88n }), /^orderData: invalid value/],
    [
      'client order id beyond uint64',
      () => placeOrderHash({ orderWord: 1n, clientOrderId: 1n << 64n }),
      /^client_order_id: invalid value/,
    ],
  ])('refuses %s with a typed error', (_label, attempt, message) => {
    expect(attempt).toThrow(InvalidValueError);
    expect(attempt).toThrow(message);
  });
});
