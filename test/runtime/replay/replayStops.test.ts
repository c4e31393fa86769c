import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDecimals,
  compareDecimals,
  multiplyDecimals,
  negateDecimal,
  normalizeDecimal,
} from '../../../src/core/decimal.js';
import { loadStrategies } from '../../../src/runtime/bot/wiring/loadStrategies.js';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';
import { replayRecording, type ReplayOptions } from '../../../src/runtime/replay/replayRecording.js';
import { replayReportText, type ReplayReport } from '../../../src/runtime/replay/replayReport.js';
import { recordingLogger, type KitLogLine } from '../../../src/testing/kitSupport.js';
import { fallingRecording, type FallingRecording } from './fallingRecording.js';

/**
 * `perpbot replay` of a protected strategy: the bundled market maker with a stop-loss on a
 * recording whose mark and trades fall 1 % through it. The keeper places the stop on the replay's
 * simulator, which fires it on the recorded mark (or the recorded trades) and executes it as the
 * account's reduce-only order after its lag; the fill is the strategy's, and the report says so.
 */
let dir: string;
let recording: FallingRecording;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'perpbot-replay-stops-'));
  recording = await fallingRecording(join(dir, 'rec'));
}, 30_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function replayWith(protection: string | undefined, lines: KitLogLine[] = [], extra = ''): Promise<ReplayReport> {
  const config = await loadConfig({
    text: `
venue: { profile: sim }
risk:
  max_order_notional: "100000"
  max_position_per_market: "1000000"
  max_open_orders: 20
  kill_switch: { max_loss: "100000" }
strategies:
  - name: maker
    module: strategies/marketMaker.ts
    markets: [1]
    params: { size: "0.001", spread_bps: 4, requote_bps: 3, max_inventory: "0.001", skew_bps: 2, post_only: true }
${protection === undefined ? '' : `    protection: ${protection}`}
${extra}
`,
    env: {},
    acknowledgeMainnet: false,
  });
  const options: ReplayOptions = {
    path: join(dir, 'rec'),
    config,
    hosted: await loadStrategies(config, process.cwd()),
    latencyMs: 0,
    makerFeeBps: 2,
    takerFeeBps: 5,
    balance: '100000',
    sampleMs: 1_000,
    log: recordingLogger(lines, false),
    onError: (error) => {
      throw error;
    },
  };
  return replayRecording(options);
}

const sum = (values: readonly string[]): string => values.reduce((a, v) => addDecimals(a, v), '0');

describe('replay of a protected strategy', () => {
  it('fires the stop-loss on the recorded mark, executes it after the lag, and attributes its fill to the strategy', async () => {
    const lines: KitLogLine[] = [];
    const report = await replayWith('{ stop_loss_bps: 30 }', lines);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    const [maker] = report.strategies;
    const stops = maker!.stops!;
    expect(stops.executed).toBeGreaterThanOrEqual(1);
    const fired = stops.orders.filter((o) => o.state === 'executed');
    expect(fired.length).toBe(stops.executed);
    const first = fired[0]!;
    expect(first).toMatchObject({ marketId: 1, role: 'stop_loss', side: 'sell', size: '0.001', trigger: 'mark' });
    // It fired on a recorded mark at or under its stop price, and the venue says which.
    const triggered = first.triggeredPrice!;
    expect(new Set([...recording.marks].map((m) => normalizeDecimal(m, 'mark'))).has(triggered)).toBe(true);
    expect(compareDecimals(triggered, first.stopPrice)).toBeLessThanOrEqual(0);
    // Its execution: a taker sell of the whole position, after the placement, booked to the strategy.
    expect(first.fills).toHaveLength(1);
    const [fill] = first.fills;
    expect(fill!.size).toBe('0.001');
    expect(first.filledSize).toBe('0.001');
    expect(first.placedT).not.toBeNull();
    expect(fill!.t).toBeGreaterThan(first.placedT!);
    expect(first.endT).toBe(fill!.t);
    expect(report.series.fills).toContainEqual(
      expect.objectContaining({ t: fill!.t, side: 'sell', price: fill!.price, size: '0.001', liquidity: 'taker' }),
    );
    // Its realised PnL is the fall from the entry (the maker's bid that filled first): negative, exact.
    const entry = report.series.fills[0]!;
    expect(entry).toMatchObject({ side: 'buy', size: '0.001', liquidity: 'maker' });
    expect(fill!.realisedPnl).toBe(multiplyDecimals(addDecimals(fill!.price, negateDecimal(entry.price)), '0.001'));
    expect(compareDecimals(fill!.realisedPnl, '0')).toBe(-1);
    // The section adds up: its totals are its orders'.
    expect(stops.executedSize).toBe(sum(fired.map((o) => o.filledSize)));
    expect(stops.realisedPnl).toBe(sum(stops.orders.map((o) => o.realisedPnl)));
    expect(stops.fees).toBe(sum(stops.orders.flatMap((o) => o.fills.map((f) => f.fee))));
    expect(stops.placed).toBe(stops.orders.filter((o) => o.placedT !== null).length);
    // Every reduction of the position in this recording was a stop's: the account's realised PnL is theirs.
    expect(report.totals.realisedPnl).toBe(stops.realisedPnl);
    // After the last fill the maker is long again, and its stop stays on the venue (shutdown.protection: keep).
    expect(stops.orders.at(-1)).toMatchObject({ state: 'accepted', endT: null, fills: [] });
  }, 60_000);

  it('a stop on the last trade fires on a recorded trade price; the same inputs give the same report bytes', async () => {
    const first = await replayWith('{ stop_loss_bps: 30, trigger: last }');
    const stops = first.strategies[0]!.stops!;
    const fired = stops.orders.filter((o) => o.state === 'executed');
    expect(fired.length).toBeGreaterThanOrEqual(1);
    const trades = new Set([...recording.tradePrices].map((p) => normalizeDecimal(p, 'price')));
    for (const order of fired) {
      expect(order.trigger).toBe('last');
      expect(trades.has(order.triggeredPrice!)).toBe(true);
    }
    // The recorded trades run 20 USD under the mark: a stop on them fires before the mark reaches it.
    const onMark = (await replayWith('{ stop_loss_bps: 30 }')).strategies[0]!.stops!.orders[0]!;
    expect(fired[0]!.endT!).toBeLessThan(onMark.endT!);
    expect(replayReportText(await replayWith('{ stop_loss_bps: 30, trigger: last }'))).toBe(replayReportText(first));
  }, 90_000);

  it('shutdown.protection: cancel cancels the last stop at the end; without protection the report has no stops', async () => {
    const cancelled = await replayWith('{ stop_loss_bps: 30 }', [], 'shutdown: { protection: cancel }');
    const stops = cancelled.strategies[0]!.stops!;
    expect(stops.orders.at(-1)).toMatchObject({ state: 'cancelled', fills: [] });
    expect(stops.orders.at(-1)!.endT).toBe(cancelled.recording.endMs);
    expect(stops.cancelled).toBe(1);
    const plain = await replayWith(undefined);
    expect(plain.strategies[0]).not.toHaveProperty('stops');
    expect(replayReportText(plain)).not.toContain('"stops"');
    // Without its stops the maker keeps its long through the fall: nothing realised.
    expect(plain.totals.realisedPnl).toBe('0');
  }, 60_000);
});
