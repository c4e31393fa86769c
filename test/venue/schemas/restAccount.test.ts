import { describe, expect, it } from 'vitest';
import {
  crossMarginBalanceResponseSchema,
  depositRequestSchema,
  depositResponseSchema,
  isFlatPosition,
  isolatedMarginRequestSchema,
  leverageRequestSchema,
  marginModeRequestSchema,
  positionResponseSchema,
} from '../../../src/venue/schemas/restAccount.js';
import { issuePaths } from './restIssuePaths.js';

const ACCOUNT = '0x1111111111111111111111111111111111111111';

describe('account request schemas', () => {
  it('parses the faucet deposit', () => {
    expect(depositRequestSchema.parse({ account: ACCOUNT, amount: '1000' }).amount).toBe('1000');
    expect(issuePaths(depositRequestSchema.safeParse({ account: ACCOUNT, amount: 1000 }))).toEqual(['amount']);
    expect(issuePaths(depositRequestSchema.safeParse({ account: ACCOUNT, amount: '-1' }))).toEqual(['amount']);
    expect(depositResponseSchema.parse({ data: {} }).data).toEqual({});
  });

  it('parses leverage as a uint8 string from 1 to 255', () => {
    expect(leverageRequestSchema.parse({ market_id: '1', leverage: '20' }).leverage).toBe(20n);
    expect(leverageRequestSchema.safeParse({ market_id: '1', leverage: '255' }).success).toBe(true);
    expect(issuePaths(leverageRequestSchema.safeParse({ market_id: '1', leverage: '0' }))).toEqual(['leverage']);
    expect(issuePaths(leverageRequestSchema.safeParse({ market_id: '1', leverage: '256' }))).toEqual(['leverage']);
    expect(issuePaths(leverageRequestSchema.safeParse({ market_id: 1, leverage: 20 }))).toEqual([
      'market_id',
      'leverage',
    ]);
  });

  it('parses margin mode 0 or 1', () => {
    expect(marginModeRequestSchema.parse({ market_id: '1', margin_mode: 1 }).margin_mode).toBe(1);
    expect(issuePaths(marginModeRequestSchema.safeParse({ market_id: '1', margin_mode: 2 }))).toEqual(['margin_mode']);
  });

  it('parses isolated margin amounts as signed int128 strings', () => {
    expect(isolatedMarginRequestSchema.parse({ market_id: '1', amount: '-5000000' }).amount).toBe(-5_000_000n);
    expect(issuePaths(isolatedMarginRequestSchema.safeParse({ market_id: '1', amount: 5 }))).toEqual(['amount']);
    expect(
      issuePaths(isolatedMarginRequestSchema.safeParse({ market_id: '1', amount: (1n << 127n).toString() })),
    ).toEqual(['amount']);
  });
});

describe('position and balance schemas', () => {
  const open = {
    market_id: '1',
    size: '0.5',
    side: 'BUY',
    margin_mode: 0,
    isolated_usdc_balance: '0',
    avg_entry_price: '65000',
    mark_price: '65010.5',
    leverage: '10',
    unrealized_pnl: '5.25',
    liquidation_price: '59000',
  };

  it('parses an open position', () => {
    const parsed = positionResponseSchema.parse({ data: { position: open } }).data.position;
    expect(parsed.side).toBe('BUY');
    expect(parsed.unrealized_pnl).toBe('5.25');
    expect(isFlatPosition(parsed)).toBe(false);
  });

  it('parses the flat record (market 0 and empty strings) into nulls', () => {
    const flat = Object.fromEntries(Object.keys(open).map((key) => [key, ''])) as Record<string, string>;
    flat['market_id'] = '0';
    const parsed = positionResponseSchema.parse({ data: { position: flat } }).data.position;
    expect(parsed.size).toBeNull();
    expect(parsed.side).toBeNull();
    expect(parsed.margin_mode).toBeNull();
    expect(isFlatPosition(parsed)).toBe(true);
  });

  it('reads the live int side and margin_mode (venue-wire.md §2) into the names the engine reads', () => {
    const read = (side: unknown, marginMode: unknown = 1) =>
      positionResponseSchema.parse({ data: { position: { ...open, side, margin_mode: marginMode } } }).data.position;
    expect(read(0)).toMatchObject({ side: 'BUY', margin_mode: 1 });
    expect(read(1)).toMatchObject({ side: 'SELL' });
    expect(read('1', '0')).toMatchObject({ side: 'SELL', margin_mode: 0 });
    expect(read('SELL')).toMatchObject({ side: 'SELL' });
    // The live record's extra fields are read, "" as null; unknown ones are dropped.
    const live = positionResponseSchema.parse({
      data: { position: { ...open, side: 1, quote_amount: '-10.5', adl_price: '', shiny_new_field: 7 } },
    }).data.position;
    expect(live).toMatchObject({ quote_amount: '-10.5', adl_price: null });
    expect(live).not.toHaveProperty('shiny_new_field');
  });

  it('tells a flat position by its size, whatever its side says (the venue keeps side 0)', () => {
    const flat = { ...open, market_id: '1', size: '', side: 0 };
    expect(isFlatPosition(positionResponseSchema.parse({ data: { position: flat } }).data.position)).toBe(true);
    const zero = { ...open, size: '0', side: 1 };
    expect(isFlatPosition(positionResponseSchema.parse({ data: { position: zero } }).data.position)).toBe(true);
  });

  it('names a bad position field', () => {
    expect(issuePaths(positionResponseSchema.safeParse({ data: { position: { ...open, side: 'LONG' } } }))).toEqual([
      'data.position.side',
    ]);
  });

  it('parses a negative cross-margin balance exactly', () => {
    expect(crossMarginBalanceResponseSchema.parse({ data: { balance: '-12.000000000000000001' } }).data.balance).toBe(
      '-12.000000000000000001',
    );
    expect(issuePaths(crossMarginBalanceResponseSchema.safeParse({ data: { balance: -12 } }))).toEqual([
      'data.balance',
    ]);
  });
});
