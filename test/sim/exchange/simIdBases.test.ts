import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import type { Exchange } from '../../../src/sim/exchange/exchange.js';
import {
  checkIdBases,
  COUNTING_FROM_ONE,
  ID_BASE_LIMIT,
  idBasesFrom,
  type SimIdBases,
} from '../../../src/sim/exchange/simIdBases.js';
import { randomIdBases } from '../../../src/sim/randomIdBases.js';
import { resolveSimOptions } from '../../../src/sim/simOptions.js';
import { SimRuntime } from '../../../src/sim/simRuntime.js';
import { ALICE, BOB, T0, limit, ofType, quietExchange } from './exchangeFixture.js';

/** One trade between ALICE (maker) and BOB (taker): its order ids, trade id and fill ids. */
function oneTrade(ex: Exchange): { wides: bigint[]; trade: string; fills: string[] } {
  const maker = ex.placeOrder(ALICE, limit(1, 650_000, 20), T0);
  const taker = ex.placeOrder(BOB, limit(0, 650_000, 20), T0);
  return {
    wides: [maker.order, taker.order].map((o) => BigInt(o.wide_order_id)),
    trade: ofType(taker.events, 'trade')[0]?.trade.id ?? '',
    fills: ofType(taker.events, 'fill').map((f) => f.fill.id),
  };
}

/** Ids of one trade on a simulator runtime as `startSim` builds it, funded and registered. */
function runtimeTrade(deterministicIds: boolean): ReturnType<typeof oneTrade> {
  const runtime = new SimRuntime(resolveSimOptions({ deterministicIds }), systemClock);
  const ex = runtime.exchange;
  for (const who of [ALICE, BOB]) ex.deposit(who, '1000000');
  // No block has been mined: the synthetic makers have placed nothing yet.
  return oneTrade(ex);
}

describe('simulator id bases', () => {
  it('counts orders, fills and trades from 1 by default in the exchange core', () => {
    const ids = oneTrade(quietExchange());
    expect(ids.wides.map((w) => w >> 1n)).toEqual([1n, 2n]);
    expect(ids.trade).toBe('1');
    expect(ids.fills).toEqual(['1', '2']);
  });

  it('counts each from its own base when given bases, the wide id carrying the sequence', () => {
    const bases: SimIdBases = { order: 10n ** 15n, fill: 7n * 10n ** 17n, trade: ID_BASE_LIMIT - 1n };
    const ids = oneTrade(quietExchange({ idBases: bases }));
    expect(ids.wides.map((w) => w >> 1n)).toEqual([bases.order + 1n, bases.order + 2n]);
    expect(ids.trade).toBe(String(bases.trade + 1n));
    expect(ids.fills).toEqual([String(bases.fill + 1n), String(bases.fill + 2n)]);
  });

  it('makes bases below 2^61 from 8 random bytes each, so wide ids stay below 2^63', () => {
    const top = idBasesFrom(new Uint8Array(24).fill(0xff));
    expect(top).toEqual({ order: ID_BASE_LIMIT - 1n, fill: ID_BASE_LIMIT - 1n, trade: ID_BASE_LIMIT - 1n });
    const ids = oneTrade(quietExchange({ idBases: top }));
    for (const wide of ids.wides) expect(wide).toBeLessThan(1n << 63n);
    const bytes = new Uint8Array(24);
    bytes.set([1], 7);
    bytes.set([0x20, 0, 0, 0, 0, 0, 1, 2], 8);
    bytes.set([3], 23);
    // Big-endian, the bits from 2^61 up dropped.
    expect(idBasesFrom(bytes)).toEqual({ order: 1n, fill: 0x102n, trade: 3n });
    expect(() => idBasesFrom(new Uint8Array(16))).toThrow(/24 random bytes/);
  });

  it('gives two draws of the system randomness different bases', () => {
    const a = randomIdBases();
    const b = randomIdBases();
    expect([a.order, a.fill, a.trade]).not.toEqual([b.order, b.fill, b.trade]);
    for (const base of [a.order, a.fill, a.trade, b.order, b.fill, b.trade]) {
      expect(base).toBeGreaterThanOrEqual(0n);
      expect(base).toBeLessThan(ID_BASE_LIMIT);
    }
  });

  it('refuses a base outside 0 to 2^61 - 1, naming it', () => {
    expect(() => checkIdBases({ ...COUNTING_FROM_ONE, fill: ID_BASE_LIMIT })).toThrow(/idBases\.fill/);
    expect(() => quietExchange({ idBases: { ...COUNTING_FROM_ONE, order: -1n } })).toThrow(/idBases\.order/);
  });

  it('a simulator runtime numbers from random bases, unless asked for deterministic ids', () => {
    const first = runtimeTrade(false);
    const second = runtimeTrade(false);
    expect(first.fills.some((id) => second.fills.includes(id))).toBe(false);
    expect(first.trade).not.toBe(second.trade);
    expect(first.wides.some((w) => second.wides.includes(w))).toBe(false);

    const fixed = runtimeTrade(true);
    expect(fixed.wides.map((w) => w >> 1n)).toEqual([1n, 2n]);
    expect([fixed.trade, ...fixed.fills]).toEqual(['1', '1', '2']);
    expect(runtimeTrade(true)).toEqual(fixed);
  });
});
