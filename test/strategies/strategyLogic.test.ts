import { describe, expect, it } from 'vitest';
import {
  computeQuotes,
  keepOffTheTouch,
  shouldRequote,
  signedInventory,
  skewBps,
  marketMakerParams,
} from '../../strategies/marketMaker.js';
import { gridLevels, ladderAround } from '../../strategies/grid.js';
import { decide, momentumParams } from '../../strategies/momentumTaker.js';

describe('market maker quotes', () => {
  const p = marketMakerParams.parse({
    size: '0.001',
    spread_bps: 20,
    requote_bps: 5,
    max_inventory: '0.01',
    skew_bps: 10,
  });

  it('centres on the mark when flat, spread_bps apart', () => {
    expect(computeQuotes('65000', '0', p)).toEqual({ center: '65000', bid: '64935', ask: '65065' });
  });

  it('skews the centre against inventory and stops the side at the limit', () => {
    expect(skewBps('0.005', p)).toBe('-5');
    expect(skewBps('-0.005', p)).toBe('5');
    expect(skewBps('0.02', p)).toBe('-10');
    const half = computeQuotes('65000', '0.005', p);
    expect(half.center).toBe('64967.5');
    expect(half.bid).toBeDefined();
    const full = computeQuotes('65000', '0.01', p);
    expect(full.bid).toBeUndefined();
    expect(full.ask).toBe('64999.935'); // 65000 × (1 − 0.001) × (1 + 0.001)
    const short = computeQuotes('65000', '-0.01', p);
    expect(short.ask).toBeUndefined();
    expect(short.bid).toBe('64999.935');
  });

  it('requotes only when the centre moves by requote_bps or more', () => {
    expect(shouldRequote(undefined, '65000', 5)).toBe(true);
    expect(shouldRequote('65000', '65032', 5)).toBe(false);
    expect(shouldRequote('65000', '65032.5', 5)).toBe(true);
    expect(shouldRequote('65000', '64967.5', 5)).toBe(true);
  });

  it('moves a post-only quote that would cross the book one tick behind the opposite touch', () => {
    // Long at the limit: the skewed ask (64999.935) sits below the best bid of 64999.9.
    const full = computeQuotes('65000', '0.01', p);
    expect(keepOffTheTouch(full, { bestBid: '64999.95', bestAsk: '65000.05' }, '0.1')).toEqual({
      center: full.center,
      ask: '65000.05',
    });
    // A bid at or above the best ask goes one tick under it; the ask behind the touch stays.
    const quotes = { center: '100', bid: '100.5', ask: '101' };
    expect(keepOffTheTouch(quotes, { bestBid: '99', bestAsk: '100.5' }, '0.5')).toEqual({
      center: '100',
      bid: '100',
      ask: '101',
    });
    expect(keepOffTheTouch(quotes, { bestBid: '101', bestAsk: '102' }, '0.5')).toEqual({
      center: '100',
      bid: '100.5',
      ask: '101.5',
    });
  });

  it('leaves quotes behind the touch, or with an empty opposite side, unchanged, and drops a bid with no positive price left', () => {
    const flat = computeQuotes('65000', '0', p);
    expect(keepOffTheTouch(flat, { bestBid: '64990', bestAsk: '65010' }, '0.1')).toEqual(flat);
    expect(keepOffTheTouch(flat, {}, '0.1')).toEqual(flat);
    expect(keepOffTheTouch({ center: '0.2', bid: '0.2', ask: '0.3' }, { bestAsk: '0.1' }, '0.1')).toEqual({
      center: '0.2',
      ask: '0.3',
    });
  });

  it('signs inventory from the position side', () => {
    expect(signedInventory(undefined)).toBe('0');
    expect(signedInventory({ marketId: 1, side: 'sell', size: '0.2', signedSize: '-0.2' })).toBe('-0.2');
    expect(signedInventory({ marketId: 1, side: 'buy', size: '0', signedSize: '0' })).toBe('0');
  });
});

describe('grid', () => {
  it('spaces levels evenly and exactly', () => {
    expect(gridLevels('100', '110', 3)).toEqual(['100', '105', '110']);
    expect(gridLevels('1', '2', 4)).toEqual(['1', '1.333333333333333333', '1.666666666666666666', '2']);
  });

  it('buys below the gap and sells above it, nothing at it', () => {
    const levels = gridLevels('100', '110', 3);
    expect(ladderAround(levels, 1)).toEqual([
      { level: 0, side: 'buy', price: '100' },
      { level: 2, side: 'sell', price: '110' },
    ]);
    // A filled buy at level 0 moves the gap there: a sell at the old gap.
    expect(ladderAround(levels, 0)).toEqual([
      { level: 1, side: 'sell', price: '105' },
      { level: 2, side: 'sell', price: '110' },
    ]);
  });
});

describe('momentum decisions', () => {
  const p = momentumParams.parse({
    size: '0.001',
    lookback_blocks: 3,
    entry_bps: 10,
    stop_loss_bps: 20,
    take_profit_bps: 40,
  });

  it('waits for a full window, then enters with the move', () => {
    expect(decide(['100', '100.05'], '100.2', undefined, undefined, p)).toEqual({ action: 'none' });
    expect(decide(['100', '100.05', '100.08'], '100.1', undefined, undefined, p)).toEqual({
      action: 'enter',
      side: 'buy',
      moveBps: '10',
    });
    expect(decide(['100', '99.95', '99.92'], '99.9', undefined, undefined, p)).toEqual({
      action: 'enter',
      side: 'sell',
      moveBps: '-10',
    });
    expect(decide(['100', '100', '100'], '100.09', undefined, undefined, p)).toEqual({ action: 'none' });
  });

  it('closes a long on the stop loss and a short on the take profit', () => {
    const long = { marketId: 1, side: 'buy' as const, size: '0.001', signedSize: '0.001', avgEntryPrice: '100' };
    expect(decide([], '99.8', long, undefined, p)).toEqual({ action: 'close', reason: 'stop_loss', pnlBps: '-20' });
    expect(decide([], '99.9', long, undefined, p)).toEqual({ action: 'none' });
    const short = { marketId: 1, side: 'sell' as const, size: '0.001', signedSize: '-0.001', avgEntryPrice: '100' };
    expect(decide([], '99.6', short, undefined, p)).toEqual({ action: 'close', reason: 'take_profit', pnlBps: '40' });
    expect(decide([], '100.2', short, undefined, p)).toEqual({ action: 'close', reason: 'stop_loss', pnlBps: '-20' });
  });
});
