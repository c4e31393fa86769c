import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { InFlightActions, type InFlightTicket } from '../../../src/engine/admission/inFlightActions.js';
import type { Admission } from '../../../src/engine/admission/admissionGate.js';
import { StrategyBudgets } from '../../../src/engine/admission/strategyBudgets.js';
import { isResting } from '../../../src/engine/orders/trackedOrder.js';
import { cancelAll, closePosition, placeLimit } from '../../../src/engine/intents/intentBuilders.js';
import type { IntentOutcome } from '../../../src/engine/intents/intentOutcome.js';
import type { Intent } from '../../../src/engine/intents/intents.js';
import { refusal } from '../../../src/engine/intents/refusal.js';
import type { TrackedOrder } from '../../../src/engine/tracking/orderTracker.js';
import type { RiskLimits } from '../../../src/engine/guards/riskLimits.js';
import { budgetGuardConfig } from '../../../src/engine/guards/riskLimits.js';
import { SessionLedger } from '../../../src/engine/ledger/sessionLedger.js';

const GLOBAL: RiskLimits = {
  max_order_notional: '1000',
  max_position_per_market: '5000',
  max_open_orders: 20,
  max_actions_per_second: 100,
  kill_switch: { max_loss: '500' },
};

/**
 * The engine's budgets with a stand-in for the rest of the engine: `submitted` is what passed its
 * strategy's budget (next: the account's limits), `outcomes.next` plays the engine settling an
 * intent (its ticket), `marks.next` a new mark.
 */
function harness(budgets: Record<string, Partial<RiskLimits>>, maxWaitMs = 30_000) {
  const clock = new ManualClock();
  const mark = new Map([[1, '65000']]);
  const submitted: Intent[] = [];
  const open: TrackedOrder[] = [];
  const cancelledFor: string[] = [];
  const errors: string[] = [];
  const seen: IntentOutcome[] = [];
  const tickets = new Map<string, InFlightTicket>();
  const inFlight = new InFlightActions(clock);
  // As in the engine: the one ledger books a fill before the budgets judge it.
  const ledger = new SessionLedger((id) => mark.get(id));
  const engine = new StrategyBudgets(
    {
      limits: new Map(Object.entries(budgets).map(([name, own]) => [name, budgetGuardConfig({ ...GLOBAL, ...own })])),
    },
    {
      clock,
      log: { error: (_obj: unknown, msg?: string) => void errors.push(msg ?? '') },
      maxWaitMs,
      inFlight,
      ordersOnVenue: (strategy) => {
        const counts = new Map<number, number>();
        for (const o of open)
          if (o.strategy === strategy && (isResting(o.state) || o.state === 'unknown'))
            counts.set(o.marketId, (counts.get(o.marketId) ?? 0) + 1);
        return counts;
      },
      markOf: (id) => mark.get(id),
      bookOf: (strategy) => ledger.bookOf(strategy),
      cancelOrdersOf: async (strategy) => void cancelledFor.push(strategy),
    },
  );
  let closed = false;
  const stopping = (intent: Intent) => refusal('engine_stopped', intent.kind, 'the bot is stopping; no new intents');
  const answer = (intent: Intent) => (a: Admission) => {
    if ('rule' in a)
      seen.push({
        type: 'refused',
        intentId: intent.intentId,
        strategy: intent.strategy,
        kind: intent.kind,
        marketId: 1,
        atMs: clock.now(),
        refusal: a,
      });
    else {
      tickets.set(intent.intentId, a);
      submitted.push(intent);
    }
  };
  const port = {
    submit(intent: Intent): void {
      if (closed) return answer(intent)(stopping(intent));
      if (!engine.has(intent.strategy)) return void submitted.push(intent);
      const now = engine.admitNow(intent);
      if (now !== undefined) answer(intent)(now);
      else void engine.admit(intent)?.then(answer(intent));
    },
    killSwitch: (strategy: string) => engine.killSwitch(strategy),
    close(): void {
      closed = true;
      engine.close(stopping);
    },
  };
  const outcomes = { next: (o: IntentOutcome) => tickets.get(o.intentId)?.settled() };
  const marks = { next: () => engine.revalueAll() };
  let n = 0;
  const buy = (strategy: string, size = '0.001', price = '65000') =>
    placeLimit({ intentId: `${strategy}-${++n}`, strategy, marketId: 1, side: 'buy', size, price });
  const fill = (strategy: string, side: 'buy' | 'sell', size: string, price: string): void => {
    const tracked = {
      id: `f${++n}`,
      marketId: 1,
      orderId: `o${n}`,
      strategy,
      side,
      size,
      price,
      fee: '0',
      liquidity: 'TAKER' as const,
    };
    ledger.onFill(tracked);
    engine.onFill(tracked);
  };
  const refusals = () =>
    seen.filter((o) => o.type === 'refused').map((o) => [o.strategy, o.type === 'refused' ? o.refusal.rule : '']);
  const rest = (intentId: string): void =>
    void open.push({
      intentId,
      strategy: 's',
      marketId: 1,
      side: 'buy',
      size: '0.001',
      price: '65000',
      state: 'open',
      filledSize: '0',
    });
  return { clock, port, outcomes, marks, mark, submitted, rest, cancelledFor, errors, seen, buy, fill, refusals };
}

describe('strategy budgets: every strategy on its own budget, inside the engine', () => {
  it("max_position_per_market counts only the strategy's own fills", () => {
    const h = harness({ small: { max_position_per_market: '150' }, large: {} });
    h.fill('small', 'buy', '0.002', '65000'); // small holds 130 of market 1
    h.fill('large', 'buy', '0.05', '65000'); // large holds 3250: not small's business
    h.port.submit(h.buy('small')); // 195 > 150
    h.port.submit(h.buy('large'));
    h.port.submit({ ...h.buy('small'), side: 'sell' }); // shrinks small's own position
    expect(h.refusals()).toEqual([['small', 'max_position']]);
    expect(h.submitted.map((i) => [i.strategy, i.kind === 'placeLimit' ? i.side : ''])).toEqual([
      ['large', 'buy'],
      ['small', 'sell'],
    ]);
  });

  it('max_actions_per_second makes a strategy wait in order while the others go on', async () => {
    const h = harness({ slow: { max_actions_per_second: 2 }, fast: {} });
    const intents = [h.buy('slow'), h.buy('slow'), h.buy('slow'), h.buy('slow')];
    for (const intent of intents) h.port.submit(intent);
    h.port.submit(h.buy('fast'));
    h.port.submit(h.buy('fast'));
    expect(h.submitted.map((i) => i.intentId)).toEqual([
      intents[0]!.intentId,
      intents[1]!.intentId,
      'fast-5',
      'fast-6',
    ]);
    await h.clock.advance(499);
    expect(h.submitted).toHaveLength(4);
    await h.clock.advance(1);
    expect(h.submitted.at(-1)?.intentId).toBe(intents[2]!.intentId);
    // A cancel emitted now queues behind the placement still waiting: the strategy's order is kept.
    const cancel = cancelAll({ intentId: 'slow-cancel', strategy: 'slow', marketId: 1 });
    h.port.submit(cancel);
    await h.clock.advance(500);
    await h.clock.advance(500);
    expect(h.submitted.slice(5).map((i) => i.intentId)).toEqual([intents[3]!.intentId, 'slow-cancel']);
    expect(h.refusals()).toEqual([]);
  });

  it('an intent that waits longer than the limit is refused, not sent late', async () => {
    const h = harness({ s: { max_actions_per_second: 1 } }, 1_000);
    h.port.submit(h.buy('s'));
    h.port.submit(h.buy('s'));
    h.port.submit(h.buy('s'));
    await h.clock.advance(5_000);
    expect(h.submitted).toHaveLength(2);
    expect(h.refusals()).toEqual([['s', 'guard_wait_timeout']]);
  });

  it("the kill switch trips on the strategy's own loss: its orders are cancelled, only cancels and closes pass, the others go on", () => {
    const h = harness({ loser: { kill_switch: { max_loss: '50' } }, other: { kill_switch: { max_loss: '50' } } });
    h.fill('loser', 'buy', '0.01', '65000');
    h.fill('other', 'sell', '0.01', '65000');
    h.mark.set(1, '59000'); // loser -60, other +60
    h.marks.next();
    expect(h.cancelledFor).toEqual(['loser']);
    expect(h.errors).toEqual(['strategy kill switch tripped: cancelling its orders']);
    expect(h.port.killSwitch('loser')).toMatchObject({ tripped: true, reason: 'loss limit reached: PnL -60 <= -50' });
    expect(h.port.killSwitch('other')).toMatchObject({ tripped: false });
    h.port.submit(h.buy('loser'));
    h.port.submit(cancelAll({ intentId: 'lc', strategy: 'loser', marketId: 1 }));
    h.port.submit(closePosition({ intentId: 'lx', strategy: 'loser', marketId: 1 }));
    h.port.submit(h.buy('other'));
    expect(h.refusals()).toEqual([['loser', 'kill_switch']]);
    expect(h.submitted.map((i) => i.intentId)).toEqual(['lc', 'lx', expect.stringMatching(/^other-/)]);
    h.marks.next();
    expect(h.cancelledFor).toEqual(['loser']); // once
  });

  it('placements in flight count toward max_open_orders until their outcome arrives', () => {
    const h = harness({ s: { max_open_orders: 2 } });
    const [first, second, third] = [h.buy('s'), h.buy('s'), h.buy('s')];
    for (const intent of [first, second, third]) h.port.submit(intent);
    expect(h.refusals()).toEqual([['s', 'max_open_orders']]);
    // The first rests (the tracker has it); the second is refused by the venue: one slot frees.
    h.rest(first.intentId);
    h.outcomes.next({
      type: 'accepted',
      intentId: first.intentId,
      strategy: 's',
      kind: 'placeLimit',
      marketId: 1,
      atMs: 0,
    });
    h.outcomes.next({
      type: 'failed',
      intentId: second.intentId,
      strategy: 's',
      kind: 'placeLimit',
      marketId: 1,
      atMs: 0,
      error: { code: 'X', message: 'x', hints: [] },
    });
    h.port.submit(h.buy('s'));
    h.port.submit(h.buy('s'));
    expect(h.refusals()).toEqual([
      ['s', 'max_open_orders'],
      ['s', 'max_open_orders'],
    ]);
    expect(h.submitted).toHaveLength(3);
  });

  it('close refuses what still waits, and nothing passes afterwards', async () => {
    const h = harness({ s: { max_actions_per_second: 1 } });
    h.port.submit(h.buy('s'));
    h.port.submit(h.buy('s'));
    h.port.close();
    h.port.submit(h.buy('s'));
    await h.clock.advance(5_000);
    expect(h.submitted).toHaveLength(1);
    expect(h.refusals()).toEqual([
      ['s', 'engine_stopped'],
      ['s', 'engine_stopped'],
    ]);
  });

  it('a budget check that throws refuses the intent with the error and sends nothing (fails closed)', async () => {
    const h = harness({ s: { max_order_notional: '100' } });
    // Not a decimal: the notional guard cannot multiply it and throws.
    h.port.submit(
      placeLimit({ intentId: 'bad', strategy: 's', marketId: 1, side: 'buy', size: 'abc', price: '65000' }),
    );
    expect(h.refusals()).toEqual([['s', 'guard_error']]);
    const refused = h.seen.find((o) => o.type === 'refused');
    expect(refused?.type === 'refused' ? refused.refusal.reason : '').toMatch(/strategy s admission check threw/);
    expect(h.submitted).toEqual([]);
  });
});
