import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { InFlightActions } from '../../../src/engine/admission/inFlightActions.js';
import { cancel, placeLimit, setLeverage } from '../../../src/engine/intents/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents/intents.js';

const intentOf = (id: number, kind: number, marketId: number): Intent => {
  const base = { intentId: `i${id}`, strategy: `s${id % 2}`, marketId };
  if (kind === 0) return placeLimit({ ...base, side: 'buy', size: '1', price: '100' });
  if (kind === 1) return cancel({ ...base, target: { orderId: '0x01' } });
  return setLeverage({ ...base, leverage: 2 });
};

describe('InFlightActions', () => {
  it('keeps the account-wide counts and the leverage flag incrementally, equal to a walk over what is held, after any holds and releases', () => {
    const step = fc.record({
      hold: fc.boolean(),
      id: fc.integer({ min: 0, max: 12 }),
      kind: fc.integer({ min: 0, max: 2 }),
      market: fc.integer({ min: 1, max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.integer({ min: 0, max: 12 }), (steps, excluded) => {
        const actions = new InFlightActions(new ManualClock());
        const held = new Map<string, Intent>();
        for (const s of steps) {
          const id = `i${s.id}`;
          if (s.hold) {
            const intent = held.get(id) ?? intentOf(s.id, s.kind, s.market);
            held.set(id, intent);
            actions.hold(intent);
          } else {
            held.delete(id);
            actions.release(id);
          }
        }
        const excluding = `i${excluded}`;
        const walk = new Map<number, number>();
        for (const [id, intent] of held)
          if (id !== excluding) walk.set(intent.marketId, (walk.get(intent.marketId) ?? 0) + 1);
        expect(new Map(actions.byMarket({ excluding }))).toEqual(walk);
        expect(actions.leverageInFlight(excluding)).toBe(
          [...held].some(([id, intent]) => id !== excluding && intent.kind === 'setLeverage'),
        );
        expect(actions.size).toBe(held.size);
      }),
    );
  });

  it('counts a strategy its own placements only', () => {
    const actions = new InFlightActions(new ManualClock());
    actions.hold(intentOf(0, 0, 1));
    actions.hold(intentOf(2, 1, 1));
    actions.hold(intentOf(1, 0, 2));
    expect(new Map(actions.byMarket({ strategy: 's0', placementsOnly: true }))).toEqual(new Map([[1, 1]]));
    expect(new Map(actions.byMarket())).toEqual(
      new Map([
        [1, 2],
        [2, 1],
      ]),
    );
  });
});
