import { describe, expect, it } from 'vitest';
import { admissionStage, type AdmissionStageDeps } from '../../../src/engine/admission/admissionStage.js';
import type { InFlightTicket } from '../../../src/engine/admission/inFlightActions.js';
import type { Checked } from '../../../src/engine/checks/checkStage.js';
import type { ResolvedAction } from '../../../src/engine/checks/wireAction.js';
import { placeLimit } from '../../../src/engine/intents/intentBuilders.js';
import { refusal } from '../../../src/engine/intents/refusal.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';

const intent = placeLimit({ intentId: 'p-1', strategy: 's', marketId: 1, side: 'buy', size: '0.002', price: '66000' });
const action: ResolvedAction = {
  action: 'placeOrder',
  order: {
    market_id: 1,
    size_steps: 200,
    price_ticks: 660_000,
    side: 0,
    post_only: false,
    reduce_only: false,
    stp_mode: 0,
    order_type: 1,
    time_in_force: 0,
    client_order_id: 7n,
  },
  size: '0.002',
  price: '66000',
};

function setUp(answer: { now?: ReturnType<NonNullable<AdmissionStageDeps['admitNow']>>; later?: InFlightTicket }) {
  const tracker = new OrderTracker();
  tracker.queued({ intentId: 'p-1', strategy: 's', marketId: 1, side: 'buy', size: '0.002', price: '66000' });
  const checked: Checked = { intent, state: tracker.accountState(), action };
  const deps: AdmissionStageDeps = {
    tracker,
    admitNow: () => answer.now,
    admit: async () => answer.later,
  };
  return { tracker, checked, deps };
}

const ticket = (): InFlightTicket & { count: number } => ({
  count: 0,
  settled() {
    this.count++;
  },
});

describe('admissionStage', () => {
  it('admitted at once: the placement is in flight in the order model with its checked size, price and client id', () => {
    const given = ticket();
    const { tracker, checked, deps } = setUp({ now: given });
    const admission = admissionStage(checked, deps);
    expect(admission).not.toBeInstanceOf(Promise);
    expect(admission).toEqual({ ticket: given });
    expect(tracker.order('p-1')).toMatchObject({
      state: 'submitted',
      size: '0.002',
      price: '66000',
      clientOrderId: 7n,
    });
  });

  it('waits for admission when it is not known at once', async () => {
    const given = ticket();
    const { tracker, checked, deps } = setUp({ later: given });
    const admission = admissionStage(checked, deps);
    expect(admission).toBeInstanceOf(Promise);
    expect(tracker.order('p-1')?.state).toBe('queued');
    expect(await admission).toEqual({ ticket: given });
    expect(tracker.order('p-1')?.state).toBe('submitted');
  });

  it('refused: no ticket, and the order is left for the track stage to settle', () => {
    const no = refusal('max_open_orders', 3, 'too many open orders');
    const { tracker, checked, deps } = setUp({ now: no });
    expect(admissionStage(checked, deps)).toEqual({ ticket: undefined, refusal: no });
    expect(tracker.order('p-1')?.state).toBe('queued');
  });

  it('cancelled while it waited: refused as cancelled_queued with the ticket kept for the one release, the order already ended', async () => {
    const given = ticket();
    const { tracker, checked, deps } = setUp({ later: given });
    const admission = admissionStage(checked, deps);
    expect(tracker.requestCancel('p-1')).toBe(true);
    const answer = await admission;
    expect(answer).toMatchObject({ ticket: given, refusal: { rule: 'cancelled_queued' }, orderEnded: true });
    expect(tracker.order('p-1')?.state).toBe('cancelled');
    expect(given.count).toBe(0);
  });
});
