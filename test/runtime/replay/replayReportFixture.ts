import { fixedToDecimal } from '../../../src/core/decimal.js';
import type { ReplayReport } from '../../../src/runtime/replay/replayReport.js';

/** Prices in cents, sizes in thousandths, cash in 1e-5 USDC (cents × thousandths): all exact. */
const PRICE_SCALE = 2;
const SIZE_SCALE = 3;
const CASH_SCALE = PRICE_SCALE + SIZE_SCALE;
const START = Date.UTC(2026, 10, 28, 6, 0, 0);
const STEP_MS = 10_000;
const FEE_BPS = 1n;

interface Market {
  readonly id: number;
  readonly every: number;
  readonly size: bigint;
  readonly maxMove: number;
  mark: bigint;
  position: bigint;
  /** What the open position cost (signed, like the position), for the unrealised PnL. */
  cost: bigint;
}

/** A small deterministic generator (an LCG): the same fixture every run, no Math.random. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

type Fill = ReplayReport['series']['fills'][number];

/**
 * A report like a replay of one market maker on two markets writes: `steps` ten-second steps of
 * marks that wander, a fill every few steps alternating sides, and the equity, positions and totals
 * that follow from them exactly. Built, not written out, so a test can ask for any length.
 */
export function replayReportFixture(options: { steps?: number; strategyName?: string } = {}): ReplayReport {
  const steps = options.steps ?? 360;
  const random = generator(27);
  const markets: Market[] = [
    { id: 1, every: 7, size: 2n, maxMove: 1500, mark: 6_000_000n, position: 0n, cost: 0n },
    { id: 2, every: 11, size: 30n, maxMove: 120, mark: 300_000n, position: 0n, cost: 0n },
  ];
  let cash = 10_000n * 10n ** BigInt(CASH_SCALE);
  let volume = 0n;
  let fees = 0n;
  let peak = cash;
  let drawdown = 0n;
  const series: { -readonly [K in keyof ReplayReport['series']]: ReplayReport['series'][K][number][] } = {
    equity: [],
    position: [],
    price: [],
    fills: [],
  };
  const equityNow = (): bigint => markets.reduce((sum, m) => sum + m.position * m.mark, cash);
  for (const m of markets) series.position.push({ t: START, marketId: m.id, size: '0' });

  for (let step = 0; step < steps; step++) {
    const t = START + step * STEP_MS;
    for (const m of markets) {
      m.mark += BigInt(Math.round((random() - 0.5) * 2 * m.maxMove));
      series.price.push({ t, marketId: m.id, mark: fixedToDecimal(m.mark, PRICE_SCALE) });
      if (step % m.every !== m.every - 1) continue;
      // Mostly against the inventory: it swings around flat, as a maker's does.
      const lean = m.position > 0n ? 0.75 : m.position < 0n ? 0.25 : 0.5;
      const side: Fill['side'] = random() < lean ? 'sell' : 'buy';
      const price = side === 'buy' ? m.mark - 50n : m.mark + 50n;
      const notional = price * m.size;
      const fee = (notional * FEE_BPS) / 10_000n;
      const signed = side === 'buy' ? m.size : -m.size;
      // Average cost: a reduction takes its share of the cost out, an increase adds its own.
      if (m.position !== 0n && signed * m.position < 0n)
        m.cost -= (m.cost * m.size) / (m.position < 0n ? -m.position : m.position);
      else m.cost += signed * price;
      m.position += signed;
      cash -= signed * price + fee;
      volume += notional;
      fees += fee;
      series.fills.push({
        t,
        marketId: m.id,
        side,
        price: fixedToDecimal(price, PRICE_SCALE),
        size: fixedToDecimal(m.size, SIZE_SCALE),
        fee: fixedToDecimal(fee, CASH_SCALE),
        liquidity: 'maker',
      });
      series.position.push({ t, marketId: m.id, size: fixedToDecimal(m.position, SIZE_SCALE) });
    }
    const equity = equityNow();
    if (equity > peak) peak = equity;
    if (peak - equity > drawdown) drawdown = peak - equity;
    series.equity.push({ t, value: fixedToDecimal(equity, CASH_SCALE) });
  }

  const net = equityNow() - 10_000n * 10n ** BigInt(CASH_SCALE);
  const unrealised = markets.reduce((sum, m) => sum + m.position * m.mark - m.cost, 0n);
  const cash$ = (value: bigint): string => fixedToDecimal(value, CASH_SCALE);
  return {
    version: 1,
    recording: {
      run: 'rec-2026-11-28T06-00',
      startMs: START,
      endMs: START + steps * STEP_MS,
      markets: [1, 2],
      frames: steps * 40,
      refusedFrames: 0,
      foreignFrames: 0,
    },
    options: { latencyMs: 50, makerFeeBps: '1', takerFeeBps: '3.5' },
    strategies: [
      {
        name: options.strategyName ?? 'market-maker',
        module: 'strategies/marketMaker.ts',
        markets: [1, 2],
        quoteUptime: [1, 2].map((marketId) => ({
          marketId,
          wantedMs: steps * STEP_MS,
          heldMs: steps * STEP_MS * 0.98,
          uptime: 0.98,
          missing: 0.02,
          none: 0.005,
          requotes: steps,
          requoteLatencyMs: { p50: 12, p99: 40 },
          actionsPerRequote: 2.5,
        })),
      },
      { name: 'hedger', module: 'strategies/hedger.ts', markets: [2], quoteUptime: [] },
    ],
    totals: {
      orders: series.fills.length * 3,
      fills: series.fills.length,
      volume: cash$(volume),
      fees: cash$(fees),
      realisedPnl: cash$(net - unrealised),
      unrealisedPnl: cash$(unrealised),
      netPnl: cash$(net),
      maxDrawdown: cash$(drawdown),
    },
    series,
  };
}
