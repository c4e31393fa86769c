import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import {
  cancel,
  cancelAll,
  closePosition,
  placeLimit,
  placeMarket,
  setLeverage,
} from '../../../src/engine/intents/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents/intents.js';
import { FeedClock } from '../../../src/runtime/freshness/feedClock.js';
import { FreshnessBudgets, type FreshnessChange } from '../../../src/runtime/freshness/freshnessBudgets.js';
import { resolveFreshness } from '../../../src/runtime/freshness/resolveFreshness.js';

function setup() {
  const clock = new ManualClock(1_000_000);
  const feeds = new FeedClock(clock);
  const budgets = new FreshnessBudgets(feeds, [
    { name: 'mm', markets: [1, 2], budget: { book: 2000, mark: 1000 } },
    { name: 'grid', markets: [1], budget: {} },
  ]);
  const changes: FreshnessChange[] = [];
  budgets.changes$.subscribe((c) => changes.push(c));
  return { clock, feeds, budgets, changes };
}

const base = { strategy: 'mm', marketId: 1 };
const opening: [string, Intent][] = [
  ['a limit order', placeLimit({ ...base, intentId: 'l', side: 'buy', size: '1', price: '10', postOnly: true })],
  ['a market order', placeMarket({ ...base, intentId: 'm', side: 'sell', size: '1' })],
  ['a leverage change', setLeverage({ ...base, intentId: 'v', leverage: 5 })],
];
const reducing: [string, Intent][] = [
  [
    'a reduce-only limit order',
    placeLimit({ ...base, intentId: 'rl', side: 'sell', size: '1', price: '10', reduceOnly: true }),
  ],
  ['a reduce-only market order', placeMarket({ ...base, intentId: 'rm', side: 'sell', size: '1', reduceOnly: true })],
  ['a cancel', cancel({ ...base, intentId: 'c', target: { intentId: 'l' } })],
  ['a cancel-all', cancelAll({ ...base, intentId: 'ca' })],
  ['a close', closePosition({ ...base, intentId: 'cp' })],
];

describe('FreshnessBudgets', () => {
  it('follows exactly the declared streams and markets; a strategy with no budget has no conditions', () => {
    const { budgets, feeds } = setup();
    expect(budgets.declared()).toEqual([
      { channel: 'book', marketId: 1 },
      { channel: 'book', marketId: 2 },
      { channel: 'mark', marketId: 1 },
      { channel: 'mark', marketId: 2 },
    ]);
    expect(feeds.readings().map((r) => `${r.channel}:${r.marketId}`)).toEqual(['book:1', 'book:2', 'mark:1', 'mark:2']);
    expect(budgets.conditions('grid')).toBeUndefined();
    expect(budgets.conditions('mm')).toBeDefined();
  });

  it.each(opening)('refuses %s with FEED_STALE once one declared stream is past its budget', async (_what, intent) => {
    const { clock, feeds, budgets } = setup();
    for (const m of [1, 2]) for (const c of ['book', 'mark'] as const) feeds.touch(c, m);
    expect(budgets.verdict('mm', intent)).toEqual({ kind: 'allow' });
    await clock.advance(900);
    feeds.touch('mark', 1);
    feeds.touch('book', 1);
    feeds.touch('book', 2);
    await clock.advance(200);
    // mark of market 2: 1100 ms old, over 1000; everything else is fresh.
    const verdict = budgets.verdict('mm', intent);
    expect(verdict).toMatchObject({
      kind: 'refuse',
      refusal: { rule: 'feed_stale', value: 'mark of market 2 is 1100 ms old (budget 1000 ms)' },
    });
    expect(verdict.kind === 'refuse' ? verdict.refusal.reason : '').toBe(
      'strategy mm is reduce-only (FEED_STALE): mark of market 2 is 1100 ms old (budget 1000 ms)',
    );
  });

  it.each(reducing)('lets %s through while stale', async (_what, intent) => {
    const { clock, budgets } = setup();
    await clock.advance(5_000);
    expect(budgets.staleFeeds('mm')).toHaveLength(4);
    expect(budgets.verdict('mm', intent)).toEqual({ kind: 'allow' });
  });

  it('judges the ages live: a stream that never spoke is stale from the start of following, and lifts the moment it speaks', async () => {
    const { clock, feeds, budgets } = setup();
    const intent = opening[0]![1];
    await clock.advance(1_000);
    expect(budgets.verdict('mm', intent).kind).toBe('allow');
    await clock.advance(1);
    expect(budgets.staleFeeds('mm').map((f) => `${f.channel}:${f.marketId}`)).toEqual(['mark:1', 'mark:2']);
    feeds.touch('mark', 1);
    feeds.touch('mark', 2);
    expect(budgets.verdict('mm', intent).kind).toBe('allow');
    // Another strategy's streams are not this one's concern.
    expect(budgets.staleFeeds('grid')).toEqual([]);
  });

  it('check() publishes each transition once: stale (again when other streams go stale), then fresh', async () => {
    const { clock, feeds, budgets, changes } = setup();
    budgets.check();
    expect(changes).toEqual([]);
    await clock.advance(1_500);
    budgets.check();
    budgets.check();
    expect(changes).toEqual([
      {
        strategy: 'mm',
        stale: true,
        feeds: [
          expect.objectContaining({ channel: 'mark', marketId: 1 }),
          expect.objectContaining({ channel: 'mark', marketId: 2 }),
        ],
      },
    ]);
    await clock.advance(600);
    budgets.check();
    expect(changes).toHaveLength(2);
    expect(changes[1]?.feeds.map((f) => f.channel)).toEqual(['book', 'book', 'mark', 'mark']);
    for (const m of [1, 2]) for (const c of ['book', 'mark'] as const) feeds.touch(c, m);
    budgets.check();
    expect(changes[2]).toMatchObject({ strategy: 'mm', stale: false });
    expect(changes).toHaveLength(3);
  });
});

describe('resolveFreshness', () => {
  it('takes the definition, each stream overridden by the config entry', () => {
    expect(resolveFreshness('mm', { book: 2000, mark: 1000 }, { mark: 300 })).toEqual({ book: 2000, mark: 300 });
    expect(resolveFreshness('mm', undefined, { trades: 5000 })).toEqual({ trades: 5000 });
    expect(resolveFreshness('mm', undefined, undefined)).toEqual({});
  });

  it.each([
    [
      { orderbook: 1000 },
      'strategy mm declares a freshness budget on "orderbook", which is not a stream the bot can time',
    ],
    [{ mark: 0 }, 'strategy mm declares freshness.mark = 0; expected whole milliseconds from 1 to 3600000'],
    [{ mark: 1.5 }, 'strategy mm declares freshness.mark = 1.5; expected whole milliseconds from 1 to 3600000'],
    ['fast', 'strategy mm declares freshness = "fast"; expected whole milliseconds from 1 to 3600000'],
  ])('refuses a definition declaring %j', (declared, message) => {
    expect(() => resolveFreshness('mm', declared, undefined)).toThrow(message);
  });
});
