import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../../src/core/address.js';
import type { ExchangeEvent } from '../../../src/sim/exchange/exchangeEvents.js';
import type { PlaceOrderParams } from '../../../src/sim/exchange/exchangeRecords.js';
import { DrivenMarket } from '../../../src/sim/replay/drivenMarket.js';
import { resolveSimOptions } from '../../../src/sim/simOptions.js';
import { SimRuntime } from '../../../src/sim/simRuntime.js';
import { VirtualTime } from '../../../src/testing/virtualTime.js';

const BOT = parseAddress('0x00000000000000000000000000000000000b0700', 'bot');
const T0 = Date.UTC(2026, 5, 1);

/** Market 1 of the simulator (BTC: tick 0.1, step 0.00001), driven by frames, with the bot funded. */
function driven(): { runtime: SimRuntime; market: DrivenMarket; events: ExchangeEvent[] } {
  const time = new VirtualTime(T0);
  const runtime = new SimRuntime(resolveSimOptions({ blockMs: 0, deterministicIds: true }), time, {
    makers: false,
    oracleVolatilityPpm: 0,
  });
  runtime.exchange.deposit(BOT, '1000000');
  const market = new DrivenMarket(runtime);
  const events: ExchangeEvent[] = [];
  runtime.events.subscribe((e) => {
    if (e.type === 'exchange') events.push(e.event);
  });
  return { runtime, market, events };
}

function book(type: 'snapshot' | 'update', bids: [string, string][], asks: [string, string][]): string {
  const level = ([price, quantity]: [string, string]) => ({ price, quantity, order_count: 1 });
  return JSON.stringify({
    method: type,
    channel: 'orderbook',
    type,
    market_id: '1',
    data: { market_id: 1, bids: bids.map(level), asks: asks.map(level) },
    ...(type === 'update' ? { checksum: 0 } : { level_count: bids.length + asks.length }),
    block_number: 1,
    log_index: 0,
    worker_timestamp: '1',
  });
}

function trade(price: string, size: string, makerSide: 0 | 1): string {
  return JSON.stringify({
    channel: 'trades',
    type: 'update',
    market_id: 1,
    worker_timestamp: '1',
    data: {
      id: '77',
      maker_order_id: '1',
      taker_order_id: '2',
      maker: '0x0000000000000000000000000000000000000001',
      taker: '0x0000000000000000000000000000000000000002',
      maker_side: makerSide,
      price,
      size,
      fee_maker: '0',
      fee_taker: '0',
      fee_liquidation: '0',
    },
  });
}

function limit(side: 0 | 1, price: string, size: string, tif: 0 | 3 = 0): PlaceOrderParams {
  return {
    market_id: 1,
    side,
    price_ticks: Math.round(Number(price) * 10),
    size_steps: Math.round(Number(size) * 100_000),
    post_only: false,
    reduce_only: false,
    stp_mode: 0,
    order_type: 1,
    time_in_force: tif,
  };
}

function botFills(events: readonly ExchangeEvent[]): { price: string; size: string; liquidity: string }[] {
  return events.flatMap((e) =>
    e.type === 'fill' && e.account === BOT
      ? [{ price: e.fill.price, size: e.fill.size, liquidity: e.fill.liquidity_indicator }]
      : [],
  );
}

describe('DrivenMarket', () => {
  it('shows the recorded book (decimal levels on the wire) as the exchange book', () => {
    const { runtime, market } = driven();
    expect(market.hasBook(1)).toBe(false);
    expect(market.driveFrame(book('snapshot', [['63218.5', '1.5']], [['63220', '0.2']]), T0)).toBe('book');
    expect(market.hasBook(1)).toBe(true);
    expect(runtime.exchange.book(1)).toMatchObject({
      bids: [{ price: '63218.5', quantity: '1.5' }],
      asks: [{ price: '63220', quantity: '0.2' }],
    });
    market.driveFrame(book('update', [['63218.5', '0']], [['63221', '1']]), T0 + 1);
    expect(runtime.exchange.book(1)).toMatchObject({
      bids: [],
      asks: [
        { price: '63220', quantity: '0.2' },
        { price: '63221', quantity: '1' },
      ],
    });
  });

  it('a taker walks the recorded levels and consumes them until the next book frame replaces the level', () => {
    const { runtime, market, events } = driven();
    market.driveFrame(
      book(
        'snapshot',
        [],
        [
          ['100', '0.001'],
          ['100.1', '0.002'],
        ],
      ),
      T0,
    );
    runtime.recordAction(runtime.exchange.placeOrder(BOT, limit(0, '100.1', '0.002', 3), T0).events);
    expect(botFills(events)).toEqual([
      { price: '100', size: '0.001', liquidity: 'TAKER' },
      { price: '100.1', size: '0.001', liquidity: 'TAKER' },
    ]);
    expect(runtime.exchange.book(1).asks).toMatchObject([{ price: '100.1', quantity: '0.001' }]);
    // An update of another level leaves the consumed one as it is; one of this level restores it.
    market.driveFrame(book('update', [], [['100.2', '1']]), T0 + 1);
    expect(runtime.exchange.book(1).asks[0]).toMatchObject({ price: '100.1', quantity: '0.001' });
    market.driveFrame(book('update', [], [['100.1', '0.002']]), T0 + 2);
    expect(runtime.exchange.book(1).asks[0]).toMatchObject({ price: '100.1', quantity: '0.002' });
  });

  it('a book moving through a resting order of ours does not fill it; a trade through its price does', () => {
    const { runtime, market, events } = driven();
    market.driveFrame(book('snapshot', [['99', '1']], [['101', '1']]), T0);
    runtime.recordAction(runtime.exchange.placeOrder(BOT, limit(0, '100', '0.003'), T0).events);
    market.driveFrame(
      book(
        'update',
        [],
        [
          ['101', '0'],
          ['99.5', '1'],
        ],
      ),
      T0 + 1,
    );
    expect(botFills(events)).toEqual([]);
    market.driveFrame(trade('99.5', '0.002', 0), T0 + 2);
    expect(botFills(events)).toEqual([{ price: '100', size: '0.002', liquidity: 'MAKER' }]);
  });

  it('at its own price, our order fills only after the displayed size ahead of it traded', () => {
    const { runtime, market, events } = driven();
    market.driveFrame(book('snapshot', [['100', '0.005']], [['101', '1']]), T0);
    runtime.recordAction(runtime.exchange.placeOrder(BOT, limit(0, '100', '0.003'), T0).events);
    market.driveFrame(trade('100', '0.004', 0), T0 + 1);
    expect(botFills(events)).toEqual([]);
    market.driveFrame(trade('100', '0.003', 0), T0 + 2);
    expect(botFills(events)).toEqual([{ price: '100', size: '0.002', liquidity: 'MAKER' }]);
    // The maker fee (the simulator's 2 bps) is charged on the fill.
    expect(events.find((e) => e.type === 'fill' && e.account === BOT)).toMatchObject({ fill: { fee: '0.00004' } });
  });

  it('a shrinking level moves our order up its queue', () => {
    const { runtime, market, events } = driven();
    market.driveFrame(book('snapshot', [['100', '0.005']], [['101', '1']]), T0);
    runtime.recordAction(runtime.exchange.placeOrder(BOT, limit(0, '100', '0.003'), T0).events);
    market.driveFrame(book('update', [['100', '0.001']], []), T0 + 1);
    market.driveFrame(trade('100', '0.002', 0), T0 + 2);
    expect(botFills(events)).toEqual([{ price: '100', size: '0.001', liquidity: 'MAKER' }]);
  });

  it('sets mark and index from the oracle frame (integer wei on the wire) and publishes a block', () => {
    const { runtime, market, events } = driven();
    const frame = JSON.stringify({
      channel: 'oracle',
      type: 'update',
      market_id: null,
      worker_timestamp: '1',
      data: {
        prices: { '1': { mark_price: '63219500000000000000000', index_price: '63218000000000000000000' } },
        timestamp: 1,
      },
      tx_hash: '0x',
      block_number: 1,
      log_index: 0,
    });
    expect(market.driveFrame(frame, T0)).toBe('oracle');
    expect(runtime.exchange.oraclePrices()['1']).toEqual({
      mark_price: '63219500000000000000000',
      index_price: '63218000000000000000000',
    });
    expect(events.some((e) => e.type === 'oracle')).toBe(true);
  });

  it("a recorded trade is the market's last price: a stop on the last price fires at once, one on the mark does not", () => {
    const { runtime, market } = driven();
    expect(runtime.exchange.watchedPrices(1).lastTradeWei).toBeUndefined();
    const stop = (option: 'MARK_PRICE' | 'LAST_TRADED_PRICE', signed: string) =>
      runtime.tpsl.place(
        {
          account: BOT,
          marketId: 1,
          side: 'SELL',
          size: '0.001',
          sizePercentBps: 0,
          stopType: 'STOP_LOSS',
          orderType: 'MARKET',
          stopPrice: '99',
          stopPriceWei: 99n * 10n ** 18n,
          limitPrice: '0',
          limitTicks: 0,
          stopPriceOption: option,
          tif: 'IOC',
          createdAtMs: T0,
        },
        signed,
      );
    const onLast = stop('LAST_TRADED_PRICE', 'a');
    const onMark = stop('MARK_PRICE', 'b');
    market.driveFrame(trade('98.5', '0.5', 0), T0 + 10);
    expect(runtime.exchange.watchedPrices(1).lastTradeWei).toBe(985n * 10n ** 17n);
    expect(onLast).toMatchObject({ status: 'TPSL_ORDER_STATUS_TRIGGERED', triggeredPrice: '98.5', triggeredAtMs: T0 });
    expect(onMark.status).toBe('TPSL_ORDER_STATUS_ACCEPTED');
  });

  it('republishes recorded trades and ignores what it does not drive', () => {
    const { market, events } = driven();
    expect(market.driveFrame(trade('100', '0.5', 1), T0)).toBe('trades');
    expect(events.filter((e) => e.type === 'trade')).toMatchObject([
      { market_id: 1, trade: { price: '100', size: '0.5', maker_side: 1 } },
    ]);
    expect(market.driveFrame('{"type":"subscribed","channel":"trades"}', T0)).toBe('ignored');
    expect(market.driveFrame('not json', T0)).toBe('refused');
    expect(market.driveFrame(JSON.stringify({ channel: 'orderbook', type: 'update', data: {} }), T0)).toBe('refused');
    expect(market.counts).toMatchObject({ trades: 1, ignored: 1, refused: 2 });
  });
});
