import { describe, expect, it } from 'vitest';
import {
  placeTpslRequestSchema,
  tpslOrderRecordSchema,
  tpslOrdersDataSchema,
  tpslOrdersQuerySchema,
} from '../../../src/venue/schemas/restTpsl.js';
import {
  cancelAllTpslAcceptSchema,
  cancelTpslAcceptSchema,
  placeTpslAcceptSchema,
} from '../../../src/venue/schemas/restTpslAccepted.js';
import { signedNumberOf } from '../../../src/venue/schemas/tpslNames.js';

/**
 * Every disputed reading of the TP/SL wire (venue-tpsl.md "Disputed encodings", "The TpslOrder
 * record"): the simulator's body parser and the client's record decoder read each to one output;
 * what no source shows is refused with the field named.
 */
const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SIGNER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const B64_65 = Buffer.from([...Array<number>(64).fill(7), 27]).toString('base64');
const B64_64 = Buffer.alloc(64, 7).toString('base64');
const HEX_65 = `0x${'07'.repeat(64)}1b`;

/** The body as perpbot sends it: names, a string market id, base64 of 65 bytes. */
const sent = {
  account: ACCOUNT,
  market_id: '1',
  side: 'SELL',
  size: '0.001',
  stop_type: 'STOP_LOSS',
  order_type: 'MARKET',
  stop_price: '61000',
  limit_price: '0',
  stop_price_option: 'MARK_PRICE',
  tif: 'IOC',
  signer: SIGNER,
  signature: B64_65,
  deadline: 1_893_456_000,
};

describe('a TP/SL place body, every reading', () => {
  const expected = placeTpslAcceptSchema.parse(sent);

  it.each([
    ['market_id a number (TS2) or a string (TS)', { market_id: 1 }],
    ['side a number (the TS bot, TS2)', { side: 1 }],
    ['side a digit string', { side: '1' }],
    ['stop_type a number ("STOP_LOSS" vs 1)', { stop_type: 1 }],
    ['order_type a number (TS)', { order_type: 0 }],
    ['stop_price_option a number (TS)', { stop_price_option: 0 }],
    ['tif a number (TS2)', { tif: 3 }],
    ['deadline a digit string', { deadline: '1893456000' }],
  ])('%s reads as the names', (_, change) => {
    const parsed = placeTpslAcceptSchema.parse({ ...sent, ...change });
    expect({ ...parsed, signature: expected.signature }).toEqual(expected);
  });

  it('takes the signature as base64 of 65 or 64 bytes or as 0x hex', () => {
    for (const signature of [B64_65, B64_64, HEX_65])
      expect(placeTpslAcceptSchema.parse({ ...sent, signature }).signature).toBe(signature);
  });

  it('reads the last-traded option by name or number, and the variant’s size_percent_bps', () => {
    expect(placeTpslAcceptSchema.parse({ ...sent, stop_price_option: 'LAST_TRADED_PRICE' }).stop_price_option).toBe(
      'LAST_TRADED_PRICE',
    );
    expect(placeTpslAcceptSchema.parse({ ...sent, stop_price_option: 1 }).stop_price_option).toBe('LAST_TRADED_PRICE');
    expect(placeTpslAcceptSchema.parse({ ...sent, size: '0', size_percent_bps: '10000' }).size_percent_bps).toBe(
      10_000,
    );
  });

  it.each([
    ['side', { side: 'LONG' }],
    ['side', { side: 2 }],
    ['stop_type', { stop_type: 'STOP_TYPE_NONE' }],
    ['order_type', { order_type: 'STOP' }],
    ['stop_price_option', { stop_price_option: 'INDEX_PRICE' }],
    ['stop_price_option', { stop_price_option: 'PRICE_OPTION_NONE' }],
    ['tif', { tif: 'DAY' }],
    ['tif', { tif: 4 }],
    ['size', { size: '1e3' }],
    ['size', { size: 0.001 }],
    ['stop_price', { stop_price: '0' }],
    ['stop_price', { stop_price: '-5' }],
    ['market_id', { market_id: '01' }],
    ['deadline', { deadline: 2 ** 32 }],
    ['signature', { signature: 'c2lnbmF0dXJl' }],
    ['size_percent_bps', { size_percent_bps: 10_001 }],
    ['account', { account: '0x1234' }],
  ])('refuses %s %j, naming it', (field, change) => {
    const result = placeTpslAcceptSchema.safeParse({ ...sent, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain(field);
  });

  it('the client’s own schema holds what it sends to one reading: names, not numbers', () => {
    expect(placeTpslRequestSchema.safeParse(sent).success).toBe(true);
    expect(placeTpslRequestSchema.safeParse({ ...sent, side: 1 }).success).toBe(false);
    expect(placeTpslRequestSchema.safeParse({ ...sent, market_id: 1 }).success).toBe(false);
  });

  it('the names sit at the numbers PlaceTpslOrder signs', () => {
    expect(['BUY', 'SELL'].map((n) => signedNumberOf(n as 'BUY'))).toEqual([0, 1]);
    expect(signedNumberOf('TAKE_PROFIT')).toBe(0);
    expect(signedNumberOf('STOP_LOSS')).toBe(1);
    expect(signedNumberOf('MARK_PRICE')).toBe(0);
    expect(signedNumberOf('LAST_TRADED_PRICE')).toBe(1);
    expect(['GTC', 'GTT', 'FOK', 'IOC'].map((n) => signedNumberOf(n as 'GTC'))).toEqual([0, 1, 2, 3]);
  });
});

describe('TP/SL cancel bodies', () => {
  it('read a number or string deadline and market id; cancel-all refuses market 0', () => {
    const cancel = { order_id: 'conditional-1', account: ACCOUNT, signer: SIGNER, signature: B64_64, deadline: '5' };
    expect(cancelTpslAcceptSchema.parse(cancel).deadline).toBe(5);
    expect(cancelTpslAcceptSchema.safeParse({ ...cancel, order_id: '' }).success).toBe(false);
    const all = { account: ACCOUNT, market_id: 2, signer: SIGNER, signature: HEX_65, deadline: 5 };
    expect(cancelAllTpslAcceptSchema.parse(all).market_id).toBe('2');
    const zero = cancelAllTpslAcceptSchema.safeParse({ ...all, market_id: 0 });
    expect(zero.error?.issues[0]?.message).toMatch(/0 is not "all markets"/);
  });
});

describe('the TpslOrder record, every reading', () => {
  const row = {
    order_id: 'conditional-1',
    market_id: '1',
    side: 'SELL',
    size: '0.001',
    stop_type: 'STOP_LOSS',
    stop_price: '70000',
    status: 'TPSL_ORDER_STATUS_ACCEPTED',
  };

  it('reads enums by name or number and the order id as a string or number', () => {
    const named = tpslOrderRecordSchema.parse({
      ...row,
      order_type: 'MARKET',
      tif: 'GTC',
      stop_price_option: 'MARK_PRICE',
    });
    const numbered = tpslOrderRecordSchema.parse({
      ...row,
      side: 1,
      stop_type: 1,
      order_type: 0,
      tif: 0,
      stop_price_option: 0,
      market_id: 1,
    });
    expect(numbered).toEqual(named);
    expect(tpslOrderRecordSchema.parse({ ...row, order_id: 42 }).order_id).toBe('42');
  });

  it('reads every status, the NONE option, "" prices and ns times as strings or safe numbers', () => {
    for (const status of [
      'TPSL_ORDER_STATUS_ACCEPTED',
      'TPSL_ORDER_STATUS_TRIGGERED',
      'TPSL_ORDER_STATUS_SUCCESS',
      'TPSL_ORDER_STATUS_CANCELLED',
    ])
      expect(tpslOrderRecordSchema.parse({ ...row, status }).status).toBe(status);
    const parsed = tpslOrderRecordSchema.parse({
      ...row,
      stop_price_option: 'PRICE_OPTION_NONE',
      triggered_price: '',
      limit_price: '',
      triggered_at: '1790900000123456789',
      created_at: 0,
    });
    expect(parsed).toMatchObject({ triggered_price: undefined, limit_price: undefined, created_at: 0n });
    expect(parsed.triggered_at).toBe(1_790_900_000_123_456_789n);
  });

  it('refuses a status it does not know (fails closed) and an unsafe number time', () => {
    expect(tpslOrderRecordSchema.safeParse({ ...row, status: 'UNKNOWN_FUTURE_STATUS' }).success).toBe(false);
    expect(tpslOrderRecordSchema.safeParse({ ...row, status: 1 }).success).toBe(false);
    expect(tpslOrderRecordSchema.safeParse({ ...row, created_at: 1_790_872_262_000_000_000 }).success).toBe(false);
  });

  it('reads the page as {orders,total,page,limit} or as the bare array', () => {
    expect(tpslOrdersDataSchema.parse({ orders: [row], total: '1', page: 1, limit: '50' })).toMatchObject({
      total: 1,
      page: 1,
      limit: 50,
    });
    expect(tpslOrdersDataSchema.parse([row]).orders).toHaveLength(1);
  });
});

describe('the TP/SL list query', () => {
  const base = { account: ACCOUNT };

  it('reads statuses repeated, comma-separated or single', () => {
    const both = ['TPSL_ORDER_STATUS_ACCEPTED', 'TPSL_ORDER_STATUS_TRIGGERED'];
    expect(tpslOrdersQuerySchema.parse({ ...base, statuses: both }).statuses).toEqual(both);
    expect(tpslOrdersQuerySchema.parse({ ...base, statuses: both.join(',') }).statuses).toEqual(both);
    expect(tpslOrdersQuerySchema.parse({ ...base, statuses: both[0] }).statuses).toEqual([both[0]]);
  });

  it('refuses an unknown status or stop type, page 0 and a limit over 1000', () => {
    for (const bad of [
      { statuses: ['TPSL_ORDER_STATUS_ACCEPTED', 'OPEN'] },
      { stop_type: 'BOTH' },
      { page: '0' },
      { limit: '1001' },
      { start_time: '-1' },
    ])
      expect(tpslOrdersQuerySchema.safeParse({ ...base, ...bad }).success, JSON.stringify(bad)).toBe(false);
    expect(tpslOrdersQuerySchema.parse({ ...base, stop_type: 'STOP_TYPE_NONE', limit: '1000' })).toMatchObject({
      stop_type: 'STOP_TYPE_NONE',
      limit: 1000,
    });
  });
});
