import { describe, expect, it } from 'vitest';
import { addDecimals } from '../../src/strategy/index.js';
import { strategyTest } from '../../src/testing/index.js';
import grid from '../../strategies/grid.js';
import marketMaker from '../../strategies/marketMaker.js';
import momentumTaker from '../../strategies/momentumTaker.js';

/** The example strategies end to end in the test kit: the runtime's host and the real engine on the simulator's exchange. */
describe('example strategies in the test kit', () => {
  it('market maker: quotes both sides post-only once ready, keeps them within requote_bps, moves them past it, requotes after a fill', async () => {
    const t = await strategyTest(marketMaker, {
      params: { size: '0.001', spread_bps: 20, requote_bps: 5, max_inventory: '0.01', skew_bps: 10 },
    });
    const resting = () =>
      t
        .venueOrders(1)
        .map((o) => `${o.side === 0 ? 'buy' : 'sell'}@${o.price_ticks}${o.post_only ? ' post-only' : ''}`)
        .sort();
    const sent = () => t.orderEvents.filter((e) => e.type === 'submitted').length;
    await t.book(1, { bids: [['64900', '1']], asks: [['65100', '1']] });
    expect(t.intents).toHaveLength(0); // no mark yet: not started
    await t.mark(1, '65000');
    // The kit's market 1 has a tick of 0.1: 64935 and 65065 are 649350 and 650650 ticks.
    expect(resting()).toEqual(['buy@649350 post-only', 'sell@650650 post-only']);
    expect(sent()).toBe(2);
    // 10 of 5 bps of tolerance: the same two orders rest, nothing sent.
    await t.mark(1, '65010');
    expect(t.intentsOf('quote')).toHaveLength(2);
    expect(sent()).toBe(2);
    // A move past requote_bps: each quote moved (a cancel and a place a side).
    await t.mark(1, '65100');
    expect(resting()).toEqual(['buy@650349 post-only', 'sell@651651 post-only']);
    expect(sent()).toBe(4);
    const bid = t.state.openOrders(1).find((o) => o.side === 'buy')!;
    await t.fill(bid.intentId!);
    expect(t.state.position(1)?.signedSize).toBe('0.001');
    // After its own fill it quotes around a centre skewed against the new inventory: both sides rest again.
    expect(t.venueOrders(1)).toHaveLength(2);
    expect(t.state.openOrders(1).find((o) => o.side === 'buy')?.intentId).not.toBe(bid.intentId);
  });

  it('grid: places the ladder around the first mark; a filled level moves the gap there, the old gap gets the opposite order', async () => {
    const t = await strategyTest(grid, {
      params: { lower: '100', upper: '110', levels: 6, size: '0.01' },
    });
    const ladder = () =>
      t
        .venueOrders(1)
        .map((o) => `${o.side === 0 ? 'buy' : 'sell'}@${o.price_ticks / 10}`)
        .sort();
    await t.book(1, { bids: [['105', '1']], asks: [['106', '1']] });
    await t.mark(1, '105.5');
    // The gap at 106 (nearest 105.5), buys below it, sells above.
    expect(ladder()).toEqual(['buy@100', 'buy@102', 'buy@104', 'sell@108', 'sell@110']);
    const buy104 = t.state.openOrders(1).find((o) => o.side === 'buy' && o.price === '104')!;
    await t.fill(buy104.intentId!);
    // The gap moves to 104; 106 gets a sell; nothing else is sent (one placement).
    expect(ladder()).toEqual(['buy@100', 'buy@102', 'sell@106', 'sell@108', 'sell@110']);
    expect(t.orderEvents.filter((e) => e.type === 'submitted')).toHaveLength(6);
    expect(t.storage.get('grid-1')).toMatchObject({ gap: 2 });
  });

  it('momentum taker: enters on a move over its window and closes on the stop loss', async () => {
    const t = await strategyTest(momentumTaker, {
      params: {
        size: '0.01',
        lookback_blocks: 2,
        entry_bps: 20,
        stop_loss_bps: 30,
        take_profit_bps: 500,
        cooldown_blocks: 0,
      },
    });
    await t.book(1, { bids: [['99.9', '5']], asks: [['100.1', '5']] });
    for (const mark of ['100', '100', '100.5']) await t.mark(1, mark);
    expect(t.intentsOf('placeMarket')).toEqual([expect.objectContaining({ side: 'buy', size: '0.01' })]);
    expect(t.state.position(1)).toMatchObject({ signedSize: '0.01', avgEntryPrice: '100.1' });
    await t.mark(1, '99.5');
    expect(t.intentsOf('closePosition')).toHaveLength(1);
    expect(t.state.position(1)).toBeUndefined();
  });

  // The leak of issue 25, which the kit on the real engine reproduced before queued orders were
  // visible: under the default profile's 5 actions a second a requote's places waited where
  // `ctx.state.openOrders()` could not see them, and resting orders piled up to the budget (10, 2 meant).
  it('market maker: under max_actions_per_second 5 never rests more than its two quotes', async () => {
    const t = await strategyTest(marketMaker, {
      params: { size: '0.001', spread_bps: 4, requote_bps: 3, max_inventory: '0.01', skew_bps: 10, post_only: true },
      marketConfig: { 1: { mark: '65000' } },
      budget: { max_open_orders: 10 },
    });
    await t.book(1, { bids: [['64900', '1']], asks: [['65100', '1']] });
    let mark = '65000';
    const resting: number[] = [];
    for (let i = 0; i < 40; i++) {
      // The mark swings by 4-5 bps: each move is a requote.
      mark = addDecimals(mark, i % 2 === 0 ? '30' : '-25');
      await t.mark(1, mark);
      await t.advance(200);
      resting.push(t.venueOrders(1).length);
    }
    expect(Math.max(...resting)).toBeLessThanOrEqual(2);
  });
});
