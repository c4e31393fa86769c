import { describe, expect, it } from 'vitest';
import { withEngineDefaults } from '../../../src/engine/config/engineConfig.js';
import { cancel, placeLimit } from '../../../src/engine/intents/intentBuilders.js';
import type { ActionSender } from '../../../src/engine/sending/actionSender.js';
import { runStages } from '../../../src/engine/pipeline/runStages.js';
import { finishedCancelTarget } from '../../../src/engine/pipeline/finishedCancelTarget.js';
import type { SignedRequest } from '../../../src/engine/signing/signedRequest.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';
import { VenueError } from '../../../src/venue/venueError.js';
import { ORDER_ID, pipelineDepsWith } from './support/pipelineDepsWith.js';

function cancelRevert(errorName: string): VenueError {
  return new VenueError({
    httpStatus: 400,
    rawBody: JSON.stringify({
      error: { code: 'FailedPrecondition', message: `FailedPrecondition: CancelOrder reverted: ${errorName}(121)` },
    }),
    endpoint: 'POST /v1/orders/cancel',
  });
}

/** An engine's executor whose tracker holds order `m-1` open in market 1, and a venue that answers `answer`. */
function executorWith(answer: () => Error) {
  const tracker = new OrderTracker();
  tracker.submitted({ intentId: 'm-1', strategy: 's', marketId: 1, side: 'sell', size: '0.002', price: '66000' });
  tracker.placed('m-1', ORDER_ID);
  const sent: SignedRequest[] = [];
  const sender: ActionSender = {
    async send(request) {
      sent.push(request);
      throw answer();
    },
  };
  const deps = pipelineDepsWith({ sender, tracker });
  return { deps, tracker, sent };
}

const cancelM1 = (marketId = 1) => cancel({ intentId: 'c-1', strategy: 's', marketId, target: { intentId: 'm-1' } });

describe('a cancel whose order is no longer open on the venue', () => {
  it('answered OrderNotFound is refused as cancel_target_finished, not failed, and the tracker keeps its view', async () => {
    const { deps, tracker, sent } = executorWith(() => cancelRevert('OrderNotFound'));
    const outcome = await runStages(cancelM1(), deps);

    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toMatchObject({ order_id: ORDER_ID });
    expect(outcome).toEqual({
      intentId: 'c-1',
      strategy: 's',
      kind: 'cancel',
      marketId: 1,
      type: 'refused',
      refusal: {
        rule: 'cancel_target_finished',
        value: 'm-1',
        reason: `the venue has no open order ${ORDER_ID} (OrderNotFound): it already filled or was cancelled`,
        hints: ['nothing to cancel; the order events (filled or cancelled) follow from the venue feeds'],
      },
      atMs: 1_700_000_000_000,
    });
    // Filled or cancelled is the feeds' to say: a fill arriving now must still be able to fill it.
    expect(tracker.order('m-1')?.state).toBe('open');
  });

  it('answered with no definite answer, then NonceUsed, and found gone by a fill: refused as cancel_target_finished, the tracker untouched', async () => {
    const answers = [
      new VenueError({
        httpStatus: 500,
        rawBody: JSON.stringify({ error: { code: 'Internal', message: 'Internal: simulated failure' } }),
        endpoint: 'POST /v1/orders/cancel',
      }),
      cancelRevert('NonceUsed'),
    ];
    const { deps, tracker, sent } = executorWith(() => answers.shift() ?? new Error('no more answers'));
    const filled = 'order 0x00000000000000f2aa is no longer open on the venue: its history shows ORDER_STATUS_FILLED';
    const outcome = await runStages(cancelM1(), {
      ...deps,
      config: withEngineDefaults({ retry: { resendDelayMs: 0 } }),
      readLandingEvidence: async () => ({ kind: 'target_finished', detail: filled }),
    });

    expect(sent).toHaveLength(2);
    expect(outcome.type === 'refused' && outcome.refusal).toMatchObject({
      rule: 'cancel_target_finished',
      value: 'm-1',
      reason: expect.stringContaining(`nothing left to cancel: ${filled}`),
    });
    // The fill is the feeds' to report: the tracker must not call it cancelled.
    expect(tracker.order('m-1')?.state).toBe('open');
  });

  it('any other revert of the cancel (NotOrderOwner) is still a failure', async () => {
    const { deps, tracker } = executorWith(() => cancelRevert('NotOrderOwner'));
    const outcome = await runStages(cancelM1(), deps);
    expect(outcome.type === 'failed' && outcome.error.message).toMatch(/NotOrderOwner\(121\)/);
    expect(tracker.order('m-1')?.state).toBe('open');
  });

  it('a cancel naming another market than the order is refused before sending (the venue would answer OrderNotFound)', async () => {
    const { deps, sent } = executorWith(() => cancelRevert('OrderNotFound'));
    const outcome = await runStages(cancelM1(2), deps);
    expect(sent).toHaveLength(0);
    expect(outcome.type === 'refused' && outcome.refusal).toMatchObject({
      rule: 'cancel_target',
      value: ORDER_ID,
      reason: 'the order is in market 1, not in market 2',
    });
  });

  it('finishedCancelTarget names the order id for a cancel by order id, and ignores other actions and errors', () => {
    const byOrderId = cancel({ intentId: 'c-2', strategy: 's', marketId: 1, target: { orderId: ORDER_ID } });
    const resolved = { action: 'cancelOrder', market_id: 1, order_id: ORDER_ID, resting_order_id: 121n } as const;
    expect(finishedCancelTarget(byOrderId, resolved, cancelRevert('OrderNotFound'))).toMatchObject({
      rule: 'cancel_target_finished',
      value: ORDER_ID,
    });
    expect(finishedCancelTarget(byOrderId, resolved, cancelRevert('NotOrderOwner'))).toBeUndefined();
    expect(finishedCancelTarget(byOrderId, resolved, new Error('OrderNotFound(121)'))).toBeUndefined();
    const place = placeLimit({ intentId: 'p-1', strategy: 's', marketId: 1, side: 'buy', size: '0.001', price: '1' });
    const placement = {
      action: 'placeOrder',
      order: {
        market_id: 1,
        size_steps: 1,
        price_ticks: 10,
        side: 0,
        post_only: false,
        reduce_only: false,
        stp_mode: 0,
        order_type: 1,
        time_in_force: 0,
      },
      size: '0.001',
      price: '1',
    } as const;
    expect(finishedCancelTarget(place, placement, cancelRevert('OrderNotFound'))).toBeUndefined();
  });
});
