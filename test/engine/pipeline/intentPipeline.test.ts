import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/logger.js';
import { ClientOrderIds } from '../../../src/engine/intents/clientOrderIds.js';
import { cancel, placeLimit } from '../../../src/engine/intents/intentBuilders.js';
import { IntentPipeline, type PipelineQuoting } from '../../../src/engine/pipeline/intentPipeline.js';
import type { ActionSender, SendReceipt } from '../../../src/engine/sending/actionSender.js';
import type { SignedRequest } from '../../../src/engine/signing/signedRequest.js';
import { NO_JOURNAL } from '../../../src/engine/tracking/engineJournal.js';
import { OrderTracker } from '../../../src/engine/tracking/orderTracker.js';
import { btcMarketView } from '../checks/support/btcMarketView.js';
import { fixedClock, ORDER_ID, pipelineDepsWith } from './support/pipelineDepsWith.js';

const quoting: PipelineQuoting = {
  acted: () => undefined,
  arrived: () => undefined,
  arrivedReplace: () => undefined,
  quote: () => {
    throw new Error('no quotes here');
  },
  replace: () => Promise.reject(new Error('no replacements here')),
};

/** A pipeline whose admission answers at once and whose sender records each request and answers when told. */
function pipelineWith() {
  const tracker = new OrderTracker();
  const sent: SignedRequest[] = [];
  const answers: ((receipt: SendReceipt) => void)[] = [];
  const sender: ActionSender = {
    send(request) {
      sent.push(request);
      return new Promise((resolve) => answers.push(resolve));
    },
  };
  const deps = pipelineDepsWith({
    sender,
    tracker,
    market: (id) => (id === 1 ? btcMarketView : undefined),
    admitNow: () => ({ settled: () => undefined }),
  });
  const pipeline = new IntentPipeline({
    tracker,
    journal: NO_JOURNAL,
    clock: fixedClock,
    log: silentLogger,
    clientOrderIds: new ClientOrderIds(1_700_000_000_000, 0, 1),
    signal: new AbortController().signal,
    quoting: () => quoting,
    protections: {
      protect: () => {
        throw new Error('no protections here');
      },
    },
    withdraw: () => undefined,
    refusal: () => undefined,
    stageDeps: () => deps,
  });
  return { pipeline, tracker, sent, answers };
}

const bid = (intentId: string) =>
  placeLimit({ intentId, strategy: 's', marketId: 1, side: 'buy', size: '0.002', price: '60000' });

describe('IntentPipeline.execute', () => {
  it('sends a placement once the current turn is over: a cancel of it in the same turn takes it out, nothing sent', async () => {
    const { pipeline, tracker, sent } = pipelineWith();
    const placed = pipeline.execute(bid('p-1'));
    expect(sent).toEqual([]);
    const cancelled = pipeline.execute(
      cancel({ intentId: 'c-1', strategy: 's', marketId: 1, target: { intentId: 'p-1' } }),
    );

    expect(await cancelled).toMatchObject({ intentId: 'c-1', type: 'accepted' });
    expect(await placed).toMatchObject({ intentId: 'p-1', type: 'refused', refusal: { rule: 'cancelled_queued' } });
    expect(tracker.order('p-1')?.state).toBe('cancelled');
    expect(sent).toEqual([]);
  });

  it('sends a placement with nothing before it on its own', async () => {
    const { pipeline, sent, answers } = pipelineWith();
    const outcome = pipeline.execute(bid('p-1'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((r) => r.endpoint)).toEqual(['placeOrder']);
    expect(sent[0]?.body).toMatchObject({ market_id: 1, size_steps: 200, price_ticks: 600_000, side: 0 });
    answers[0]?.({ orderId: ORDER_ID });
    expect(await outcome).toMatchObject({ intentId: 'p-1', type: 'accepted' });
  });

  it("holds a placement behind its strategy's earlier cancel until the cancel has its outcome", async () => {
    const { pipeline, tracker, sent, answers } = pipelineWith();
    tracker.submitted({ intentId: 'm-1', strategy: 's', marketId: 1, side: 'buy', size: '0.002', price: '59000' });
    tracker.placed('m-1', ORDER_ID);

    const cancelled = pipeline.execute(
      cancel({ intentId: 'c-1', strategy: 's', marketId: 1, target: { intentId: 'm-1' } }),
    );
    const placed = pipeline.execute(bid('p-2'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((r) => r.endpoint)).toEqual(['cancelOrder']);

    answers[0]?.({});
    expect(await cancelled).toMatchObject({ intentId: 'c-1', type: 'accepted' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((r) => r.endpoint)).toEqual(['cancelOrder', 'placeOrder']);
    answers[1]?.({ orderId: '0x00000000000000f2ab' });
    expect(await placed).toMatchObject({ intentId: 'p-2', type: 'accepted' });
  });
});
