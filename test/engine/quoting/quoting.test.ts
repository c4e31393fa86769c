import { describe, expect, it } from 'vitest';
import type { QuoteOrder } from '../../../src/strategy/index.js';
import type { StrategyTest } from '../../../src/testing/index.js';
import { drivenKit } from './drivenKit.js';

const kit = drivenKit;

const bid = (price: string): QuoteOrder => ({ side: 'buy', size: '0.01', price, postOnly: true });
const ask = (price: string): QuoteOrder => ({ side: 'sell', size: '0.01', price, postOnly: true });
const resting = (t: StrategyTest) =>
  t
    .venueOrders(1)
    .map((o) => `${o.side === 0 ? 'buy' : 'sell'}@${o.price_ticks}`)
    .sort();

describe('replace: a resting order to a new price and size', () => {
  it('puts the new order on the venue and takes the old one off; the replace intent owns the new order', async () => {
    const { t, emit } = await kit();
    const [placed] = await emit((ctx) => [
      ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.01', price: '98', postOnly: true }),
    ]);
    expect(resting(t)).toEqual(['buy@980']);
    const [moved] = await emit((ctx) => [
      ctx.intents.replace({ marketId: 1, target: { intentId: placed!.intentId }, price: '98.5', size: '0.02' }),
    ]);
    expect(resting(t)).toEqual(['buy@985']);
    expect(t.venueOrders(1)[0]).toMatchObject({ size_steps: 20, post_only: true });
    const outcome = t.outcomes.find((o) => o.intentId === moved!.intentId);
    expect(outcome).toMatchObject({ kind: 'replace', type: 'accepted' });
    expect(t.state.openOrders(1)).toEqual([
      expect.objectContaining({ intentId: moved!.intentId, price: '98.5', size: '0.02' }),
    ]);
    expect(t.orderEvents.filter((e) => e.intentId === placed!.intentId).at(-1)?.type).toBe('cancelled');
    expect(t.errors).toEqual([]);
  });

  it('refuses a target that is not a live order of this process', async () => {
    const { t, emit } = await kit();
    const [r] = await emit((ctx) => [
      ctx.intents.replace({ marketId: 1, target: { intentId: 'nobody' }, price: '98' }),
    ]);
    expect(t.outcomes.find((o) => o.intentId === r!.intentId)).toMatchObject({
      type: 'refused',
      kind: 'replace',
      refusal: { rule: 'replace_target' },
    });
  });

  it('break-before-make never has two orders for one on the venue; make-before-break never has none', async () => {
    for (const mode of ['break_before_make', 'make_before_break'] as const) {
      const { t, emit } = await kit({ latencyMs: 20 });
      const [placed] = await emit((ctx) => [
        ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: '0.01', price: '98' }),
      ]);
      await t.advance(100);
      expect(resting(t)).toEqual(['buy@980']);
      await emit((ctx) => [
        ctx.intents.replace({ marketId: 1, target: { intentId: placed!.intentId }, price: '98.5', mode }),
      ]);
      const counts = new Set<number>();
      for (let ms = 0; ms < 200; ms += 2) {
        await t.advance(2);
        counts.add(t.venueOrders(1).length);
      }
      expect(resting(t)).toEqual(['buy@985']);
      expect([...counts].sort()).toEqual(mode === 'break_before_make' ? [0, 1] : [1, 2]);
    }
  });
});

describe('quote: the orders a strategy wants, declared whole', () => {
  it('places what is missing, keeps what is within tolerance, moves what is not, cancels what is no longer wanted', async () => {
    const { t, emit } = await kit();
    const sent = () => t.orderEvents.filter((e) => e.type === 'submitted').length;
    await emit((ctx) => [
      ctx.intents.quote({ marketId: 1, orders: [bid('99.5'), ask('100.5')], tolerance: { ticks: 2 } }),
    ]);
    expect(resting(t)).toEqual(['buy@995', 'sell@1005']);
    expect(sent()).toBe(2);
    // A tick each way: within tolerance, nothing sent.
    await emit((ctx) => [
      ctx.intents.quote({ marketId: 1, orders: [bid('99.6'), ask('100.4')], tolerance: { ticks: 2 } }),
    ]);
    expect(resting(t)).toEqual(['buy@995', 'sell@1005']);
    expect(sent()).toBe(2);
    // The bid moves past tolerance: one replacement; the ask stays.
    await emit((ctx) => [
      ctx.intents.quote({ marketId: 1, orders: [bid('99.8'), ask('100.4')], tolerance: { ticks: 2 } }),
    ]);
    expect(resting(t)).toEqual(['buy@998', 'sell@1005']);
    expect(sent()).toBe(3);
    // Nothing wanted: both cancelled.
    await emit((ctx) => [ctx.intents.quote({ marketId: 1, orders: [] })]);
    expect(resting(t)).toEqual([]);
    expect(t.outcomes.filter((o) => o.kind === 'quote').map((o) => o.type)).toEqual([
      'accepted',
      'accepted',
      'accepted',
      'accepted',
    ]);
    expect(t.errors).toEqual([]);
  });

  it('a quote after a fill places the filled side again; a quote in a halt sends nothing but is refused with the reason', async () => {
    const { t, emit } = await kit();
    await emit((ctx) => [ctx.intents.quote({ marketId: 1, orders: [bid('99.5'), ask('100.5')] })]);
    const bidOrder = t.state.openOrders(1).find((o) => o.side === 'buy')!;
    await t.fill(bidOrder.intentId as string);
    expect(resting(t)).toEqual(['sell@1005']);
    await emit((ctx) => [ctx.intents.quote({ marketId: 1, orders: [bid('99.5'), ask('100.5')] })]);
    expect(resting(t)).toEqual(['buy@995', 'sell@1005']);

    await t.tripKillSwitch('test');
    expect(resting(t)).toEqual([]);
    const [q] = await emit((ctx) => [ctx.intents.quote({ marketId: 1, orders: [bid('99.5'), ask('100.5')] })]);
    expect(resting(t)).toEqual([]);
    expect(t.outcomes.find((o) => o.intentId === q!.intentId)).toMatchObject({
      type: 'refused',
      refusal: { rule: 'kill_switch' },
    });
    await t.resetKillSwitch();
    await emit((ctx) => [ctx.intents.quote({ marketId: 1, orders: [bid('99.5'), ask('100.5')] })]);
    expect(resting(t)).toEqual(['buy@995', 'sell@1005']);
  });

  it('moves quotes on through the nonce anchor rolls (208 pairs an anchor): a held replacement never blocks the roll', async () => {
    const { t, emit } = await kit();
    // 80 moves of both quotes: about 320 actions, past the first anchor's 208 pairs.
    for (let i = 0; i < 80; i++) {
      const bidPrice = i % 2 === 0 ? '99.5' : '99.6';
      const askPrice = i % 2 === 0 ? '100.5' : '100.4';
      await emit((ctx) => [
        ctx.intents.quote({ marketId: 1, orders: [bid(bidPrice), ask(askPrice)], mode: 'break_before_make' }),
      ]);
      await t.advance(150);
    }
    // What waited on the rate limit (40 actions a second) goes meanwhile.
    await t.advance(30_000);
    expect(resting(t)).toEqual(['buy@996', 'sell@1004']);
    expect(t.state.openOrders(1).map((o) => o.state)).toEqual(['open', 'open']);
    expect(t.orderEvents.filter((e) => e.type === 'submitted').length).toBeGreaterThan(150);
    expect(t.errors).toEqual([]);
  });

  it('refuses a target off the grid without a rounding, and snaps one with it', async () => {
    const { t, emit } = await kit();
    const [q] = await emit((ctx) => [ctx.intents.quote({ marketId: 1, orders: [bid('99.55')] })]);
    expect(t.outcomes.find((o) => o.intentId === q!.intentId)).toMatchObject({
      type: 'refused',
      refusal: { rule: 'quote_target', value: '99.55' },
    });
    await emit((ctx) => [ctx.intents.quote({ marketId: 1, orders: [{ ...bid('99.55'), priceRounding: 'down' }] })]);
    expect(resting(t)).toEqual(['buy@995']);
  });
});
