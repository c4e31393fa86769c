import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { Journal } from '../../src/journal/journal.js';
import { openJournal } from '../../src/journal/openJournal.js';
import type { ReconcileOptions } from '../../src/journal/reconcileOptions.js';
import type { ReconciliationInputs } from '../../src/journal/reconciliationInputs.js';
import { ReconciliationRun } from '../../src/journal/reconciliationRun.js';
import { reviewVenueOpenOrders } from '../../src/journal/reviewVenueOpenOrders.js';

const ACCOUNT = '0x00000000000000000000000000000000000000aa';
const ORDER_ID = `0x${'00000000000000a2'}${'ab'.repeat(24)}`;
const READ_AT_MS = 3_000;

describe('reviewVenueOpenOrders', () => {
  let dir: string;
  let journal: Journal;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-review-open-'));
    journal = openJournal(join(dir, 'journal.sqlite'));
  });
  afterEach(() => {
    journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const filledAt = (atMs: number) =>
    journal.recordOrder(
      ACCOUNT,
      {
        intentId: 'i1',
        strategy: 's',
        marketId: 1,
        side: 'buy',
        size: '1',
        price: '100',
        orderId: ORDER_ID,
        state: 'filled',
        filledSize: '1',
      },
      'engine',
      atMs,
    );

  const review = async () => {
    const options = {
      journal,
      account: ACCOUNT,
      trigger: 'reconnect',
      apply: true,
      clock: new ManualClock(READ_AT_MS),
      unknownOrders: 'leave',
    };
    const resting = {
      order_id: ORDER_ID,
      resting_order_id: 7n,
      wide_order_id: 7n,
      market_id: 1,
      account: ACCOUNT,
      side: 0,
      size_steps: 10,
      price_ticks: 1000,
    };
    const inputs = {
      markets: [1],
      inFlight: [],
      venue: { openOrders: [resting], positions: new Map() },
      history: { available: true, fills: [] },
    };
    const run = new ReconciliationRun(
      options as unknown as ReconcileOptions,
      inputs as unknown as ReconciliationInputs,
      READ_AT_MS,
    );
    await reviewVenueOpenOrders(run);
    return run.differences;
  };

  it('leaves an order the live feed ended after the read began: the read is older than the end', async () => {
    filledAt(READ_AT_MS + 5);
    expect(await review()).toEqual([]);
    expect(journal.orderByOrderId(ORDER_ID)).toMatchObject({ state: 'filled' });
  });

  it('reports a read that finds resting an order the journal ended before it began (the model refuses)', async () => {
    filledAt(READ_AT_MS - 5);
    expect(await review()).toEqual([
      expect.objectContaining({ type: 'order_event_refused', intentId: 'i1', event: 'found_resting', from: 'filled' }),
    ]);
  });
});
