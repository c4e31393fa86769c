import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/core/clock.js';
import type { ResolvedAction } from '../../../src/engine/checks/wireAction.js';
import { cancelledWhileQueued } from '../../../src/engine/intents/cancelledWhileQueued.js';
import { placeLimit } from '../../../src/engine/intents/intentBuilders.js';
import { refusal } from '../../../src/engine/intents/refusal.js';
import { trackStage } from '../../../src/engine/pipeline/trackStage.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';

const clock: Clock = { now: () => 1_700_000_000_000, sleep: async () => undefined };
const intent = placeLimit({ intentId: 'p-1', strategy: 's', marketId: 1, side: 'buy', size: '0.002', price: '66000' });
const spec = { intentId: 'p-1', strategy: 's', marketId: 1, side: 'buy' as const, size: '0.002', price: '66000' };
const action = { action: 'placeOrder', order: { side: 0 }, size: '0.002', price: '66000' } as unknown as ResolvedAction;

describe('trackStage', () => {
  it('a placement refused on its way ends refused in the order model, with the rule as its cause', () => {
    const tracker = new OrderTracker();
    tracker.queued(spec);
    const no = refusal('max_open_orders', 3, 'too many open orders');
    const outcome = trackStage(intent, { refusal: no }, { tracker, clock });
    expect(outcome).toMatchObject({ type: 'refused', refusal: no, atMs: 1_700_000_000_000 });
    expect(tracker.order('p-1')?.state).toBe('refused');
  });

  it('a refusal that found the order already ended tells the model nothing more', () => {
    const tracker = new OrderTracker();
    tracker.queued(spec);
    tracker.requestCancel('p-1');
    const outcome = trackStage(intent, { refusal: cancelledWhileQueued(intent), orderEnded: true }, { tracker, clock });
    expect(outcome).toMatchObject({ type: 'refused', refusal: { rule: 'cancelled_queued' } });
    expect(tracker.order('p-1')?.state).toBe('cancelled');
  });

  it('an accepted placement is placed under the venue id, and the outcome carries it', () => {
    const tracker = new OrderTracker();
    tracker.submitted(spec);
    const receipt = { orderId: '0x00000000000000f2aa' };
    const request = { path: 'placeOrder', body: {} };
    const reached = { action, result: { type: 'accepted', receipt, request } } as const;
    const outcome = trackStage(intent, reached as never, { tracker, clock });
    expect(outcome).toMatchObject({ type: 'accepted', orderId: '0x00000000000000f2aa' });
    expect(tracker.order('p-1')).toMatchObject({ state: 'open', orderId: '0x00000000000000f2aa' });
  });

  it('a placement whose send got no definite answer is unknown, not failed', () => {
    const tracker = new OrderTracker();
    tracker.submitted(spec);
    const error = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const reached = { action, result: { type: 'unknown', error: { message: error.message, hints: [] } } } as const;
    const outcome = trackStage(intent, reached as never, { tracker, clock });
    expect(outcome).toMatchObject({ type: 'unknown', reason: 'socket hang up' });
    expect(tracker.order('p-1')?.state).toBe('unknown');
  });
});
