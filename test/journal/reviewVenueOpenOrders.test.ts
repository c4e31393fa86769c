import { describe, expect, it } from 'vitest';
import { reviewVenueOpenOrders } from '../../src/journal/reviewVenueOpenOrders.js';
import { reconciliationRunOf } from './support/reconciliationRunOf.js';
import { useTempJournal } from './support/tempJournal.js';

const ACCOUNT = '0x00000000000000000000000000000000000000aa';
const ORDER_ID = `0x${'00000000000000a2'}${'ab'.repeat(24)}`;
const READ_AT_MS = 3_000;
const RESTING = {
  order_id: ORDER_ID,
  resting_order_id: 7n,
  wide_order_id: 7n,
  market_id: 1,
  account: ACCOUNT,
  side: 0,
  size_steps: 10,
  price_ticks: 1000,
};

describe('reviewVenueOpenOrders', () => {
  const temp = useTempJournal('review-open');

  const filledAt = (atMs: number) => {
    const order = { intentId: 'i1', strategy: 's', marketId: 1, side: 'buy', size: '1', price: '100' } as const;
    temp.journal.recordOrder(
      ACCOUNT,
      { ...order, orderId: ORDER_ID, state: 'filled', filledSize: '1' },
      'engine',
      atMs,
    );
  };

  const review = async () => {
    const inputs = { markets: [1], inFlight: [], venue: { openOrders: [RESTING], positions: new Map() } };
    const run = reconciliationRunOf(temp.journal, ACCOUNT, inputs, READ_AT_MS, { unknownOrders: 'leave' });
    await reviewVenueOpenOrders(run);
    return run.differences;
  };

  it('leaves an order the live feed ended after the read began: the read is older than the end', async () => {
    filledAt(READ_AT_MS + 5);
    expect(await review()).toEqual([]);
    expect(temp.journal.orderByOrderId(ORDER_ID)).toMatchObject({ state: 'filled' });
  });

  it('reports a read that finds resting an order the journal ended before it began (the model refuses)', async () => {
    filledAt(READ_AT_MS - 5);
    expect(await review()).toEqual([
      expect.objectContaining({ type: 'order_event_refused', intentId: 'i1', event: 'found_resting', from: 'filled' }),
    ]);
  });
});
