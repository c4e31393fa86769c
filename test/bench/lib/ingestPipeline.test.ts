import { describe, expect, it } from 'vitest';
import { ingestPipeline } from '../../../bench/lib/ingestPipeline.js';

const oracle = (prices: Record<string, { mark_price?: string; index_price?: string }>) =>
  JSON.stringify({
    channel: 'oracle',
    type: 'update',
    market_id: null,
    data: { prices, timestamp: 1_700_000_000 },
    tx_hash: '0xabc',
    block_number: 7,
    log_index: 0,
    worker_timestamp: '1700000000000000000',
  });

describe('bench ingest pipeline', () => {
  it('delivers an oracle frame for market 1 to the strategy subscriber and narrows out other markets', () => {
    const pipeline = ingestPipeline();
    pipeline.feed(oracle({ '1': { mark_price: '65000000000000000000000' } }));
    expect(pipeline.delivered()).toBe(1);
    // The oracle subscriber wants market 1 only: a frame for market 2 reaches nobody.
    pipeline.feed(oracle({ '2': { mark_price: '3200000000000000000000' } }));
    expect(pipeline.delivered()).toBe(1);
  });

  it('refuses frames the client would drop, so the figure never counts them', () => {
    const pipeline = ingestPipeline();
    expect(() => pipeline.feed('{"channel":"oracle","type":"update"')).toThrow(/not JSON/);
    expect(() => pipeline.feed(oracle({ '1': { mark_price: '1.5' } }))).toThrow(
      /ws:oracle at data.prices.1.mark_price/,
    );
    expect(pipeline.delivered()).toBe(0);
  });
});
