import { DEFAULT_BUSY_POLL_WINDOW_MS } from '../../src/core/busyPoll.js';
import { nativeSignerAvailable } from '../../src/protocol/nativeSigner.js';
import type { BenchScale, Figure, FigureBench } from '../lib/figure.js';
import { oracleFrames } from '../lib/tickToTrade/oracleFrames.js';
import { summariseUs } from '../lib/tickToTrade/latencySummary.js';
import { measureTickToTrade } from '../lib/tickToTrade/tickToTradeRun.js';

/** Busy polling on (the figure), then the same frames without it for the notes (the config's default). */
const SCALES = {
  full: { busy: { frames: 10_000, warmupFrames: 2_000, paceMs: 1 }, sleeping: { frames: 5_000, warmupFrames: 2_000 } },
  smoke: { busy: { frames: 60, warmupFrames: 20, paceMs: 1 }, sleeping: { frames: 30, warmupFrames: 20 } },
} as const;
const TARGET_RATIO = 3;
const TARGET_P99_US = 500;

/**
 * tick_to_trade: in one process, a strategy answering each oracle update with one limit order;
 * from the frame's bytes reaching the WebSocket client to the signed request's bytes handed to the
 * HTTP socket, p50 and p99 over 10,000 frames. Limit, measured in the same run: JSON.parse of the
 * same frames plus one bare native signature.
 */
export const tickToTrade: FigureBench = {
  name: 'tick_to_trade',
  async run(scale: BenchScale): Promise<Figure> {
    const options = SCALES[scale].busy;
    const frames = oracleFrames(options.warmupFrames + options.frames);
    const readings = await measureTickToTrade({ ...options, busyPoll: true }, frames);
    const sleeping = await measureTickToTrade({ ...SCALES[scale].sleeping, paceMs: 1, busyPoll: false }, frames);
    const sleepingTotal = summariseUs(sleeping.samples.map((s) => s.totalMs));
    const sleepingLimit = summariseUs(sleeping.limitSamples);
    const total = summariseUs(readings.samples.map((s) => s.totalMs));
    const toStrategy = summariseUs(readings.samples.map((s) => s.toStrategyMs));
    const engineLeg = summariseUs(readings.samples.map((s) => s.toSenderMs - s.toStrategyMs));
    const restLeg = summariseUs(readings.samples.map((s) => s.totalMs - s.toSenderMs));
    const limit = summariseUs(readings.limitSamples);
    const limitUs = limit.p50;
    const early = summariseUs(readings.samples.slice(0, 1_000).map((s) => s.totalMs));
    const late = summariseUs(readings.samples.slice(-1_000).map((s) => s.totalMs));
    return {
      name: 'tick_to_trade',
      value: total.p50,
      unit: 'us (p50)',
      p99_us: total.p99,
      limit_name: `JSON.parse of the same frame + one bare sign (${nativeSignerAvailable() ? 'native libsecp256k1' : '@noble/curves'})`,
      limit_value: limitUs,
      target: `p50 within ${TARGET_RATIO}x of the limit, p99 < ${TARGET_P99_US} us`,
      target_met: total.p50 <= TARGET_RATIO * limitUs && total.p99 < TARGET_P99_US,
      notes: {
        frames: total.count,
        'warm-up frames': options.warmupFrames,
        'p90 / p99.9 / max us': `${total.p90} / ${total.p999} / ${total.max}`,
        'frame to strategy p50 / p99 us': `${toStrategy.p50} / ${toStrategy.p99}`,
        'strategy to engine sender (checks, nonce, hash, sign) p50 / p99 us': `${engineLeg.p50} / ${engineLeg.p99}`,
        'sender to socket write (REST client: body check, JSON, HTTP/1.1 write) p50 / p99 us': `${restLeg.p50} / ${restLeg.p99}`,
        'first 1,000 / last 1,000 frames p50 us': `${early.p50} / ${late.p50}`,
        'x limit (p50)': Number((total.p50 / limitUs).toFixed(2)),
        'limit p99 us': limit.p99,
        'limit timing': 'p50 of JSON.parse + sign timed once per cycle, between two frames',
        'busy polling': `on (config busy_poll.enabled, ${DEFAULT_BUSY_POLL_WINDOW_MS} ms window): the loop spins while frames arrive`,
        [`without busy polling (the default), ${SCALES[scale].sleeping.frames.toLocaleString('en')} frames: p50 / p99 us, limit us, x limit`]: `${sleepingTotal.p50} / ${sleepingTotal.p99}, ${sleepingLimit.p50}, ${(sleepingTotal.p50 / sleepingLimit.p50).toFixed(2)}`,
        'frames split over 2+ reads': readings.cyclesWithSplitFrame,
        'cycles with 2+ socket writes': readings.cyclesWithSeveralWrites,
        'venue connections opened': readings.venueConnections,
        'signed placements answered': readings.signedPlacements,
        pace: `one frame at a time, >= ${options.paceMs} ms apart, after the previous order's answer`,
        'start stamp': "first 'data' event on the WebSocket client's TCP socket (ahead of ws's parser)",
        'end stamp':
          "return of the REST client socket's _writeGeneric, what _write/_writev flush through (bytes handed to the kernel)",
        'left out': 'journal, per-strategy budgets, private channels, client-side REST rate limit',
      },
    };
  },
};
