import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  cancelTpslResponseSchema,
  isActiveTpsl,
  placeTpslResponseSchema,
  tpslOrdersResponseSchema,
} from '../../../src/venue/schemas/restTpsl.js';
import {
  cancelAllTpslAcceptSchema,
  cancelTpslAcceptSchema,
  placeTpslAcceptSchema,
} from '../../../src/venue/schemas/restTpslAccepted.js';
import { canonicalTpslOrdersSchema } from '../../../src/venue/schemas/restTpslCanonical.js';

/**
 * The TP/SL samples built from venue-tpsl.md (test/vectors/tpsl-samples/README.md), one per source's
 * reading, through the client's decoders and the simulator's body parsers.
 */
function sample(name: string): Record<string, unknown> {
  const url = new URL(`../../vectors/tpsl-samples/${name}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
}

describe('TP/SL list samples', () => {
  it("FB's fixture: both stop types, an ACCEPTED and a TRIGGERED, both active; exactly the simulator's shape", () => {
    const body = sample('rest-tpsl-list.fb-fixture.json');
    const page = tpslOrdersResponseSchema.parse(body).data;
    expect(page).toMatchObject({ total: 2, page: 1, limit: 50 });
    expect(page.orders.map((o) => [o.order_id, o.stop_type, o.status])).toEqual([
      ['conditional-1', 'TAKE_PROFIT', 'TPSL_ORDER_STATUS_ACCEPTED'],
      ['conditional-2', 'STOP_LOSS', 'TPSL_ORDER_STATUS_TRIGGERED'],
    ]);
    expect(page.orders.every(isActiveTpsl)).toBe(true);
    expect(page.orders[0]).toMatchObject({
      market_id: '1',
      side: 'SELL',
      stop_price_option: 'MARK_PRICE',
      triggered_price: undefined,
      triggered_at: 0n,
      created_at: 1_800_000_000_000_000_000n,
      size_percent_bps: 10_000,
      filled_size: '0',
    });
    // The simulator is held to this shape, field for field, JSON type for JSON type.
    expect(canonicalTpslOrdersSchema.safeParse((body as { data: unknown }).data).error?.issues ?? []).toEqual([]);
  });

  it("FB's model: every field, the terminal statuses, the last-price and NONE options, a position-wide order", () => {
    const page = tpslOrdersResponseSchema.parse(sample('rest-tpsl-list.fb-model.json')).data;
    const [limit, wide] = page.orders;
    expect(limit).toMatchObject({
      side: 'BUY',
      order_type: 'LIMIT',
      limit_price: '3130',
      stop_price_option: 'LAST_TRADED_PRICE',
      status: 'TPSL_ORDER_STATUS_SUCCESS',
      tif: 'IOC',
      triggered_at: 1_790_900_000_123_456_789n,
      triggered_price: '3125.7',
      account: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    });
    expect(limit?.triggered_tx_hash).toMatch(/^0x9a8b/);
    expect(wide).toMatchObject({ size: '0', size_percent_bps: 10_000, stop_price_option: 'PRICE_OPTION_NONE' });
    expect(page.orders.some(isActiveTpsl)).toBe(false);
  });

  it("TS's reading: data as the bare array, enums as numbers", () => {
    const page = tpslOrdersResponseSchema.parse(sample('rest-tpsl-list.ts-array.json')).data;
    expect(page.total).toBeUndefined();
    expect(page.orders[0]).toMatchObject({
      order_id: '12345-100-0',
      market_id: '1',
      side: 'SELL',
      stop_type: 'STOP_LOSS',
      order_type: 'MARKET',
      stop_price_option: 'MARK_PRICE',
      tif: 'IOC',
    });
  });
});

describe('TP/SL request and answer samples', () => {
  it('the simulator reads every source’s place body to the same names', () => {
    const ts = placeTpslAcceptSchema.parse(sample('tpsl-place-request.ts.json'));
    const bot = placeTpslAcceptSchema.parse(sample('tpsl-place-request.bot.json'));
    const sized = placeTpslAcceptSchema.parse(sample('tpsl-place-request.sized.json'));
    expect(ts).toMatchObject({ market_id: '1', side: 'SELL', stop_type: 'STOP_LOSS', order_type: 'MARKET' });
    expect(ts).toMatchObject({ stop_price_option: 'MARK_PRICE', tif: 'IOC', deadline: 1_893_456_000 });
    expect(bot).toMatchObject({ side: 'SELL', stop_type: 'TAKE_PROFIT', stop_price_option: 'LAST_TRADED_PRICE' });
    expect(bot.tif).toBe('IOC');
    expect(sized).toMatchObject({ side: 'SELL', stop_type: 'STOP_LOSS', stop_price_option: 'LAST_TRADED_PRICE' });
    expect(sized).toMatchObject({ tif: 'IOC', order_type: 'MARKET', size_percent_bps: 0 });
    expect(sized.signature).toMatch(/^0x[0-9a-f]{130}$/);
  });

  it('the simulator reads the cancel bodies; the client reads the answers', () => {
    expect(cancelTpslAcceptSchema.parse(sample('tpsl-cancel-request.ts.json')).order_id).toBe('conditional-1');
    expect(cancelAllTpslAcceptSchema.parse(sample('tpsl-cancel-all-request.fb.json')).market_id).toBe('1');
    expect(placeTpslResponseSchema.parse(sample('tpsl-place-response.ts.json')).data).toEqual({
      order_id: 'conditional-3',
      sc_order_id: '1844674407370955',
      tx_hash: '0x5e1c3f0d3a0b9c2f4e7a6b8d1c2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6',
    });
    expect(cancelTpslResponseSchema.parse(sample('tpsl-cancel-response.ts.json')).data).toEqual({
      success: true,
      tx_hash: '',
    });
  });
});
