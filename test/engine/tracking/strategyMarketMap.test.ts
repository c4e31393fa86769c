import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StrategyMarketMap } from '../../../src/engine/tracking/strategyMarketMap.js';

type Op =
  | { readonly kind: 'set'; readonly strategy: string; readonly marketId: number; readonly value: number }
  | { readonly kind: 'delete'; readonly strategy: string; readonly marketId: number };

const strategy = fc.constantFrom('a', 'b', 'mm', 'a\u0000');
const marketId = fc.integer({ min: 0, max: 4 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), strategy, marketId, value: fc.integer() }),
  fc.record({ kind: fc.constant('delete' as const), strategy, marketId }),
);

describe('StrategyMarketMap', () => {
  it('answers and iterates as one Map keyed by the pair would, over random sets and deletes', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const map = new StrategyMarketMap<number>();
        const flat = new Map<string, { strategy: string; marketId: number; value: number }>();
        for (const o of ops) {
          const key = JSON.stringify([o.strategy, o.marketId]);
          if (o.kind === 'set') {
            map.set(o.strategy, o.marketId, o.value);
            flat.set(key, { strategy: o.strategy, marketId: o.marketId, value: o.value });
          } else {
            expect(map.delete(o.strategy, o.marketId)).toBe(flat.delete(key));
          }
          expect(map.get(o.strategy, o.marketId)).toBe(flat.get(key)?.value);
        }
        expect(map.size).toBe(flat.size);
        expect([...map.entries()].map((e) => ({ ...e }))).toEqual([...flat.values()]);
        expect([...map.values()]).toEqual([...flat.values()].map((e) => e.value));
        for (const s of ['a', 'b', 'mm', 'a\u0000'])
          expect([...map.marketIds(s)]).toEqual(
            [...flat.values()].filter((e) => e.strategy === s).map((e) => e.marketId),
          );
      }),
      { numRuns: 300 },
    );
  });

  it('lets entries be deleted while it is iterated', () => {
    const map = new StrategyMarketMap<string>();
    map.set('a', 1, 'a1');
    map.set('b', 1, 'b1');
    map.set('a', 2, 'a2');
    for (const { strategy, marketId } of map.entries()) if (strategy === 'a') map.delete(strategy, marketId);
    expect([...map.values()]).toEqual(['b1']);
    expect(map.get('a', 1)).toBeUndefined();
    expect([...map.marketIds('a')]).toEqual([]);
  });
});
