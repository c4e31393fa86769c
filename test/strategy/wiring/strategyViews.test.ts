import { firstValueFrom, Subject, toArray, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import type { Engine } from '../../../src/engine/engine.js';
import type { TrackedFill } from '../../../src/engine/tracking/orderTracker.js';
import { fundingOf, stateSnapshot, toPositionSnapshot } from '../../../src/strategy/wiring/stateSnapshot.js';
import { strategyStreams } from '../../../src/strategy/wiring/strategyStreams.js';
import { VenueExtras } from '../../../src/strategy/wiring/venueExtras.js';
import type { OrderBookFeed } from '../../../src/venue/orderbook/orderBookFeed.js';
import type { VenueWsClient } from '../../../src/venue/ws/venueWsClient.js';

describe('positions as strategies see them', () => {
  it('carry a signed size, the mark, unrealised PnL from the average entry, and the venue liquidation price', () => {
    expect(
      toPositionSnapshot({ marketId: 1, side: 'sell', size: '0.5', avgEntryPrice: '100' }, '90', {
        liquidationPrice: '150.5',
      }),
    ).toEqual({
      marketId: 1,
      side: 'sell',
      size: '0.5',
      signedSize: '-0.5',
      avgEntryPrice: '100',
      markPrice: '90',
      unrealisedPnl: '5',
      // The earlier name, for strategies written against it.
      unrealizedPnl: '5',
      liquidationPrice: '150.5',
    });
    // The ledger's valuation: to the venue's 1 wei, toward −infinity (−0.5 × 0.666…667 = −0.333…3335).
    expect(
      toPositionSnapshot({ marketId: 1, side: 'sell', size: '0.5', avgEntryPrice: '0.333333333333333333' }, '1')
        .unrealisedPnl,
    ).toBe('-0.333333333333333334');
    // Without an entry price, the venue's own unrealised figure; without a mark, none computed.
    expect(toPositionSnapshot({ marketId: 1, side: 'buy', size: '2' }, '90', { unrealizedPnl: '-3' })).toMatchObject({
      signedSize: '2',
      unrealisedPnl: '-3',
    });
    expect(toPositionSnapshot({ marketId: 1, side: 'buy', size: '2', avgEntryPrice: '1' })).not.toHaveProperty(
      'unrealisedPnl',
    );
  });

  it("keep the venue's loose position fields per market, cleared when flat", () => {
    const extras = new VenueExtras();
    extras.onPosition(1, { size: '0.5', liquidation_price: '50000.5', unrealized_pnl: '-1.25' });
    extras.onPosition(1, { size: '0.6', liquidation_price: '' });
    expect(extras.position(1)).toEqual({ liquidationPrice: '50000.5', unrealizedPnl: '-1.25' });
    extras.onPosition(1, { size: '0' });
    expect(extras.position(1)).toBeUndefined();
  });

  it('funding where the market record carries it, nanoseconds to ms', () => {
    expect(
      fundingOf(1, {
        current_funding_rate: '0.0001',
        funding_rate_8h: '0.0008',
        next_funding_time: '1767225600000000000',
      }),
    ).toEqual({
      marketId: 1,
      rate: '0.0001',
      rate8h: '0.0008',
      nextFundingTimeMs: 1_767_225_600_000,
    });
    expect(fundingOf(1, { mark_price: '1' })).toBeUndefined();
  });
});

describe('strategy streams from the venue', () => {
  const trades = new Subject<unknown>();
  const fills = new Subject<TrackedFill>();
  const ws = { channel: () => trades } as unknown as VenueWsClient;
  const engine = {
    fills$: fills,
    market: () => ({ mark_price: '100' }),
    markOf: () => '100',
    tracker: { position: () => ({ marketId: 1, side: 'buy', size: '1', avgEntryPrice: '90' }) },
  } as unknown as Engine;
  const clock = new ManualClock(42_000);
  const extras = new VenueExtras();
  const streams = strategyStreams(ws, {} as OrderBookFeed, engine, { venue: extras, clock });

  it('trades carry their time (the envelope nanoseconds) and the aggressor side', async () => {
    const seen = firstValueFrom(streams.trades(1).pipe(take(2), toArray()));
    trades.next({
      workerTimestamp: 1_767_225_600_123_456_789n,
      trades: [
        { id: 't1', marketId: 1, price: '100', size: '1', makerSide: 'buy' },
        { id: 't2', price: '101', size: '2', makerSide: 'sell' },
      ],
    });
    expect(await seen).toEqual([
      {
        marketId: 1,
        id: 't1',
        price: '100',
        size: '1',
        makerSide: 'buy',
        aggressorSide: 'sell',
        timeMs: 1_767_225_600_123,
      },
      {
        marketId: 1,
        id: 't2',
        price: '101',
        size: '2',
        makerSide: 'sell',
        aggressorSide: 'buy',
        timeMs: 1_767_225_600_123,
      },
    ]);
  });

  it("fills carry the venue's match time and the strategy; the engine clock when the venue gave none", async () => {
    const seen = firstValueFrom(streams.fills().pipe(take(2), toArray()));
    extras.onFill('f1', 1_767_225_601_000_000_000n);
    const fill = {
      id: 'f1',
      marketId: 1,
      orderId: '0x1',
      intentId: 's-r-1',
      strategy: 's',
      side: 'buy' as const,
      price: '100',
      size: '1',
      fee: '0.01',
      liquidity: 'MAKER' as const,
    };
    fills.next(fill);
    fills.next({ ...fill, id: 'f2' });
    expect(await seen).toEqual([
      { ...fill, timeMs: 1_767_225_601_000 },
      { ...fill, id: 'f2', timeMs: 42_000 },
    ]);
  });

  it('the state snapshot values positions at the engine mark', () => {
    expect(stateSnapshot(engine, extras).position(1)).toMatchObject({
      signedSize: '1',
      markPrice: '100',
      unrealisedPnl: '10',
    });
  });
});

describe('the mark stream from the oracle channel', () => {
  const oracle = new Subject<unknown>();
  const ws = { channel: () => oracle } as unknown as VenueWsClient;
  const streams = strategyStreams(ws, {} as OrderBookFeed, {} as Engine);
  const update = (blockNumber: number, prices: [number, { markPrice?: string; indexPrice?: string }][]) =>
    oracle.next({ channel: 'oracle', type: 'update', blockNumber, prices: new Map(prices) });

  it("gives the market's mark of each update, with its index when sent, and skips updates without one", async () => {
    const seen = firstValueFrom(streams.mark(1).pipe(take(3), toArray()));
    update(7, [
      [1, { markPrice: '100.5', indexPrice: '100.4' }],
      [2, { markPrice: '3' }],
    ]);
    update(8, [[2, { markPrice: '3.1' }]]);
    update(9, [[1, { indexPrice: '100.6' }]]);
    update(10, [[1, { markPrice: '100.7' }]]);
    update(11, [[1, { markPrice: '100.8', indexPrice: '100.9' }]]);
    const marks = await seen;
    expect(marks).toEqual([
      { marketId: 1, markPrice: '100.5', indexPrice: '100.4', blockNumber: 7 },
      { marketId: 1, markPrice: '100.7', blockNumber: 10 },
      { marketId: 1, markPrice: '100.8', indexPrice: '100.9', blockNumber: 11 },
    ]);
    expect(marks[1]).not.toHaveProperty('indexPrice');
  });
});
