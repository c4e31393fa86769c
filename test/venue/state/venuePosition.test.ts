import { describe, expect, it } from 'vitest';
import type { Position } from '../../../src/venue/schemas/restAccount.js';
import { normalizePosition, readVenuePosition } from '../../../src/venue/state/venuePosition.js';

/** A decoded position read (the schema turns the wire's "" into null). */
function position(over: Partial<Position>): Position {
  return {
    market_id: '1',
    size: '0.5',
    side: 'BUY',
    margin_mode: 0,
    isolated_usdc_balance: null,
    avg_entry_price: '65000',
    mark_price: '65010.5',
    leverage: '10',
    unrealized_pnl: '5.25',
    liquidation_price: '59000',
    ...over,
  };
}

const FLAT: Position = {
  market_id: '0',
  size: null,
  side: null,
  margin_mode: null,
  isolated_usdc_balance: null,
  avg_entry_price: null,
  mark_price: null,
  leverage: null,
  unrealized_pnl: null,
  liquidation_price: null,
};

describe('normalizePosition', () => {
  it('reads a negative size without a side as a short of the absolute size', () => {
    const p = normalizePosition(1, position({ size: '-0.25', side: null }));
    expect(p).toMatchObject({ flat: false, side: 'sell', size: '0.25', signedSize: '-0.25' });
  });

  it('reads side SELL with a positive size as a short (the size may be absolute)', () => {
    const p = normalizePosition(1, position({ size: '0.25', side: 'SELL' }));
    expect(p).toMatchObject({ flat: false, side: 'sell', size: '0.25', signedSize: '-0.25' });
  });

  it('takes the sign of the size over a side that disagrees with it', () => {
    expect(normalizePosition(1, position({ size: '-1', side: 'BUY' }))).toMatchObject({ side: 'sell', size: '1' });
  });

  it('reads a long with every value the venue sent', () => {
    expect(normalizePosition(3, position({ isolated_usdc_balance: '12.5', margin_mode: 1 }))).toEqual({
      marketId: 3,
      flat: false,
      side: 'buy',
      size: '0.5',
      signedSize: '0.5',
      avgEntryPrice: '65000',
      marginMode: 1,
      isolatedBalance: '12.5',
      unrealizedPnl: '5.25',
      leverage: '10',
      markPrice: '65010.5',
      liquidationPrice: '59000',
    });
  });

  it('reads the flat record of "" fields as flat, size "0", nothing else set', () => {
    expect(normalizePosition(2, FLAT)).toEqual({ marketId: 2, flat: true, side: 'buy', size: '0', signedSize: '0' });
  });

  it('reads a zero size as flat whatever its side, keeping the isolated margin still set aside', () => {
    const p = normalizePosition(1, position({ size: '0.000', side: 'SELL', isolated_usdc_balance: '3' }));
    expect(p).toMatchObject({ flat: true, side: 'sell', size: '0', signedSize: '0', isolatedBalance: '3' });
  });

  it('leaves out a margin mode that is neither 0 nor 1', () => {
    expect(normalizePosition(1, position({ margin_mode: 7 })).marginMode).toBeUndefined();
  });
});

describe('readVenuePosition', () => {
  it('asks for the market as a string and normalises the answer', async () => {
    const asked: unknown[] = [];
    const p = await readVenuePosition(
      {
        position: async (query) => {
          asked.push(query);
          return position({ size: '-2', side: null });
        },
      },
      '0x1111111111111111111111111111111111111111',
      4,
    );
    expect(asked).toEqual([{ account: '0x1111111111111111111111111111111111111111', market_id: '4' }]);
    expect(p).toMatchObject({ marketId: 4, side: 'sell', size: '2' });
  });
});
