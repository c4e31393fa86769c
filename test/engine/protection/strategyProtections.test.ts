import { describe, expect, it } from 'vitest';
import { bracket, placeLimit, protect } from '../../../src/engine/intents/intentBuilders.js';
import type { IntentOutcome } from '../../../src/engine/intents/intentOutcome.js';
import type { ProtectIntent } from '../../../src/engine/intents/intents.js';
import { StrategyProtections } from '../../../src/engine/protection/strategyProtections.js';

const MARKETS = new Set([1, 2, 3]);

function protections(): StrategyProtections {
  const p = new StrategyProtections({ marketKnown: (id) => MARKETS.has(id), now: () => 1_000 });
  p.configure(
    [{ strategy: 'mm', marketId: 1, spec: { stopLossBps: 50, takeProfitBps: undefined, trigger: 'mark' } }],
    new Map([
      [1, ['mm']],
      [2, ['trend', 'mm']],
      [3, ['trend']],
    ]),
  );
  return p;
}

let seq = 0;
const ask = (fields: Partial<ProtectIntent> & { readonly strategy?: string }): ProtectIntent =>
  protect({ intentId: `p-${++seq}`, strategy: 'mm', marketId: 1, ...fields });

function refusalOf(outcome: IntentOutcome): { rule: string; value: string; reason: string } | undefined {
  return outcome.type === 'refused'
    ? { rule: outcome.refusal.rule, value: outcome.refusal.value, reason: outcome.refusal.reason }
    : undefined;
}

describe('StrategyProtections: what a strategy asks overrides its config for that market', () => {
  it('kept by nobody (a replay without protection:): a protect intent is refused saying why, and nothing is in force', () => {
    const p = new StrategyProtections({ marketKnown: (id) => MARKETS.has(id), now: () => 1_000 });
    p.keptByNobody('this replay keeps no TP/SL orders', 'give the strategy a protection: block');
    expect(refusalOf(p.protect(ask({ stopLossBps: 40 })))).toEqual({
      rule: 'protection',
      value: '1',
      reason: 'this replay keeps no TP/SL orders',
    });
    expect(p.current()).toEqual([]);
    expect(p.anyAsked).toBe(false);
  });

  it('starts with the config; protect changes it; off ends it (the config does not come back); protect again restores it', () => {
    const p = protections();
    expect(p.current()).toEqual([
      { strategy: 'mm', marketId: 1, spec: { stopLossBps: 50, takeProfitBps: undefined, trigger: 'mark' } },
    ]);
    expect(p.protect(ask({ stopLossBps: 80, takeProfitBps: 120, trigger: 'last' })).type).toBe('accepted');
    expect(p.current()).toEqual([
      { strategy: 'mm', marketId: 1, spec: { stopLossBps: 80, takeProfitBps: 120, trigger: 'last' } },
    ]);
    expect(p.protect(ask({ off: true })).type).toBe('accepted');
    expect(p.current()).toEqual([]);
    expect(p.protect(ask({ takeProfitBps: 30 })).type).toBe('accepted');
    // The trigger defaults to the mark, as in the YAML.
    expect(p.current()).toEqual([
      { strategy: 'mm', marketId: 1, spec: { stopLossBps: undefined, takeProfitBps: 30, trigger: 'mark' } },
    ]);
  });

  it('a strategy without protection: in its config protects a market it trades alone; changes$ fires on each change', () => {
    const p = protections();
    let changes = 0;
    p.changes$.subscribe(() => changes++);
    expect(p.anyAsked).toBe(false);
    const outcome = p.protect(ask({ strategy: 'trend', marketId: 3, stopLossBps: 25 }));
    expect(outcome).toEqual({
      intentId: outcome.intentId,
      strategy: 'trend',
      kind: 'protect',
      marketId: 3,
      atMs: 1_000,
      type: 'accepted',
    });
    expect(p.anyAsked).toBe(true);
    expect(changes).toBe(1);
    expect(p.current().map((x) => `${x.strategy}/${x.marketId}`)).toEqual(['mm/1', 'trend/3']);
  });

  it('a bracket protects the market of its entry', () => {
    const p = protections();
    const entry = placeLimit({ intentId: 'e-1', strategy: 'mm', marketId: 1, side: 'buy', size: '0.01', price: '100' });
    const b = bracket({ intentId: 'b-1', strategy: 'mm', entry, stopLossBps: 40 });
    expect(b.marketId).toBe(1);
    expect(p.protect(b)).toMatchObject({ type: 'accepted', kind: 'bracket', intentId: 'b-1' });
    expect(p.current()).toEqual([
      { strategy: 'mm', marketId: 1, spec: { stopLossBps: 40, takeProfitBps: undefined, trigger: 'mark' } },
    ]);
  });
});

describe('StrategyProtections: refusals say what, the value and what to do, and change nothing', () => {
  const cases: [
    string,
    Partial<ProtectIntent> & { strategy?: string },
    { rule: string; value: string; reason: RegExp },
  ][] = [
    ['no leg', {}, { rule: 'protection', value: 'neither', reason: /expected stopLossBps, takeProfitBps or both/ }],
    [
      'zero bps',
      { stopLossBps: 0 },
      { rule: 'protection', value: '0', reason: /stopLossBps must be a whole number of basis points from 1 to 9999/ },
    ],
    [
      '10000 bps',
      { takeProfitBps: 10_000 },
      { rule: 'protection', value: '10000', reason: /takeProfitBps .* 1 to 9999/ },
    ],
    ['fractional bps', { stopLossBps: 12.5 }, { rule: 'protection', value: '12.5', reason: /whole number/ }],
    [
      'bps as text',
      { stopLossBps: '50' as unknown as number },
      { rule: 'protection', value: '50', reason: /stopLossBps/ },
    ],
    ['negative bps', { stopLossBps: -5 }, { rule: 'protection', value: '-5', reason: /from 1 to 9999/ }],
    [
      'unknown trigger',
      { stopLossBps: 50, trigger: 'index' as 'mark' },
      { rule: 'protection', value: 'index', reason: /trigger must be "mark" or "last"/ },
    ],
    [
      'off with a leg',
      { off: true, stopLossBps: 50 },
      { rule: 'protection', value: '{"off":true,"stopLossBps":50}', reason: /off: true takes no stopLossBps/ },
    ],
    [
      'off not a boolean',
      { off: 'yes' as unknown as boolean },
      { rule: 'protection', value: 'yes', reason: /off must be true or false/ },
    ],
    [
      'unknown market',
      { marketId: 9, stopLossBps: 50 },
      { rule: 'market_id', value: '9', reason: /market 9 is not one of the venue's markets/ },
    ],
    [
      'a market another strategy trades',
      { marketId: 2, stopLossBps: 50 },
      { rule: 'protection', value: '2', reason: /market 2 is traded also by trend/ },
    ],
  ];
  for (const [name, fields, expected] of cases)
    it(`refuses ${name}`, () => {
      const p = protections();
      const before = p.current();
      const outcome = p.protect(ask(fields));
      expect(refusalOf(outcome)).toEqual({ ...expected, reason: expect.stringMatching(expected.reason) });
      expect(p.current()).toEqual(before);
      expect(p.anyAsked).toBe(false);
    });

  it("refuses a bracket whose entry is reduce-only, another market's or not a placement", () => {
    const p = protections();
    const entry = placeLimit({ intentId: 'e', strategy: 'mm', marketId: 1, side: 'buy', size: '1', price: '1' });
    const reduce = p.protect(
      bracket({ intentId: 'b1', strategy: 'mm', entry: { ...entry, reduceOnly: true }, stopLossBps: 5 }),
    );
    expect(refusalOf(reduce)?.reason).toMatch(/reduce-only: it opens no position to protect/);
    const other = p.protect({ ...bracket({ intentId: 'b2', strategy: 'mm', entry, stopLossBps: 5 }), marketId: 3 });
    expect(refusalOf(other)?.reason).toMatch(/the bracket's strategy \(mm\) and market \(3\)/);
    const cancel = { intentId: 'c', strategy: 'mm', marketId: 1, kind: 'cancelAll' } as unknown as typeof entry;
    const notPlacement = p.protect(bracket({ intentId: 'b3', strategy: 'mm', entry: cancel, stopLossBps: 5 }));
    expect(refusalOf(notPlacement)).toMatchObject({ rule: 'protection', value: 'cancelAll' });
    const noLeg = p.protect(bracket({ intentId: 'b4', strategy: 'mm', entry }));
    expect(refusalOf(noLeg)?.reason).toMatch(/expected stopLossBps, takeProfitBps or both/);
    expect(p.anyAsked).toBe(false);
  });
});
