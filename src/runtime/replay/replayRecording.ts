import { PerpbotError } from '../../core/perpbotError.js';
import type { HostedStrategy, HostLogger } from '../../strategy/strategyHost.js';
import type { Config } from '../config/configSchema.js';
import type { HeaderRecord } from '../recording/recordingRecords.js';
import { streamRecordingFrames, type ReplayFrameSource, type TimedFrame } from './replayFrames.js';
import type { ReplayReport } from './replayReport.js';
import { marketDefinitions, ReplaySession } from './replaySession.js';
import { ReplayTape } from './replayTape.js';

export interface ReplayOptions extends ReplayRunOptions {
  /** A recording directory (its segments, oldest first) or one segment file. */
  readonly path: string;
}

/** A span of the recording to replay: frames from `fromMs` (the strategies start then) to before `toMs`. */
export interface ReplayWindow {
  readonly fromMs?: number;
  readonly toMs?: number;
}

export interface ReplayRunOptions {
  readonly config: Config;
  /** The configured strategies, loaded and their params checked. */
  readonly hosted: readonly HostedStrategy[];
  readonly latencyMs: number;
  readonly makerFeeBps: number;
  readonly takerFeeBps: number;
  /** USDC the account starts with. */
  readonly balance: string;
  /** How often the equity, position and price series take a sample, in recording ms. */
  readonly sampleMs: number;
  readonly log: HostLogger;
  /** A failure inside the replay's machinery (a frame the bot's decoders refused): none in a sound run. */
  readonly onError: (error: unknown) => void;
  /**
   * Only this span (walk-forward windows): the frames before `fromMs` still move the market, so the
   * book is whole when the bot starts at `fromMs`, but nobody trades on them; the report covers
   * the span. Absent: the whole run.
   */
  readonly window?: ReplayWindow;
  /** Stops the replay (SIGTERM): the reading throws RECORDING_STOPPED at its next chunk or line. */
  readonly signal?: AbortSignal;
}

/**
 * Replays a recording through the real engine: the configured strategies trade against the
 * simulator's market driven by the recorded public frames, each delivered at its recorded time on
 * a virtual clock (as fast as the CPU allows), then stop as a shutdown stops them. The report's
 * numbers are the engine's ledger and order events.
 */
export async function replayRecording(o: ReplayOptions): Promise<ReplayReport> {
  return replayFrames(await streamRecordingFrames(o.path, o.signal === undefined ? {} : { signal: o.signal }), o);
}

/** `replayRecording` over any frame source (a recording decoded into shared memory, for a sweep). */
export async function replayFrames(source: ReplayFrameSource, o: ReplayRunOptions): Promise<ReplayReport> {
  const { header } = source;
  const botMarkets = [...new Set(o.config.strategies.flatMap((s) => s.markets))].sort((a, b) => a - b);
  const drivenIds = checkMarkets(header, botMarkets);
  const { known, unknown } = marketDefinitions(drivenIds);
  if (unknown.length > 0) throw unknownGrid(unknown);
  const session = new ReplaySession({
    ...o,
    markets: known,
    botMarkets,
    startMs: header.startedAt,
  });
  const tape = new ReplayTape(session.bot.engine, session.clock, botMarkets, o.balance);
  const fromMs = Math.max(header.startedAt, o.window?.fromMs ?? header.startedAt);
  const frames = frameReader(source.frames());
  let driven: { frames: number; endMs: number | undefined };
  try {
    if (fromMs > header.startedAt) await preRoll(frames, session, fromMs);
    await session.start();
    driven = await driveFrames(frames, session, tape, o.sampleMs, o.window?.toMs);
  } finally {
    await frames.close();
  }
  const endMs = driven.endMs ?? fromMs;
  await session.time.advanceTo(endMs);
  tape.sample();
  // Before the stop: its cancels are the shutdown's, not a gap in the quoting.
  const uptime = session.bot.engine.quoting.uptime.views();
  await session.stop();
  const { totals, series } = tape.finish();
  return {
    version: 1,
    recording: {
      run: header.run,
      startMs: fromMs,
      endMs,
      markets: drivenIds,
      frames: driven.frames,
      refusedFrames: session.driven.counts.refused,
      // Frames of other markets are the recording's noise when it recorded every market.
      foreignFrames: header.markets.length === 0 ? 0 : session.driven.counts.foreign,
    },
    options: { latencyMs: o.latencyMs, makerFeeBps: String(o.makerFeeBps), takerFeeBps: String(o.takerFeeBps) },
    strategies: o.config.strategies.map((s) => ({
      name: s.name,
      module: s.module,
      markets: [...s.markets],
      quoteUptime: uptime.filter((u) => u.strategy === s.name).map(({ strategy: _strategy, ...rest }) => rest),
      // Only a protected strategy has the key: a replay without protection writes the bytes it did.
      ...(s.protection === undefined || session.stops === undefined ? {} : { stops: session.stops.of(s.name) }),
    })),
    totals,
    series,
  };
}

/** Frames pulled one at a time, so a pre-roll and the replay read one pass; one looked at and kept for later. */
interface FrameReader {
  /** The next frame, at once while the batch in hand has one; undefined at the end. */
  next(): TimedFrame | undefined | Promise<TimedFrame | undefined>;
  /** Puts the frame back: the next `next` returns it. */
  unread(frame: TimedFrame): void;
  close(): Promise<void>;
}

function frameReader(batches: AsyncIterable<readonly TimedFrame[]> | Iterable<readonly TimedFrame[]>): FrameReader {
  const it: AsyncIterator<readonly TimedFrame[]> | Iterator<readonly TimedFrame[]> =
    Symbol.asyncIterator in batches ? batches[Symbol.asyncIterator]() : batches[Symbol.iterator]();
  let batch: readonly TimedFrame[] = [];
  let at = 0;
  let kept: TimedFrame | undefined;
  const pull = async (): Promise<TimedFrame | undefined> => {
    for (;;) {
      const step = await it.next();
      if (step.done === true) return undefined;
      batch = step.value;
      at = 0;
      if (batch.length > 0) return batch[at++];
    }
  };
  return {
    next: () => {
      if (kept !== undefined) {
        const frame = kept;
        kept = undefined;
        return frame;
      }
      return at < batch.length ? batch[at++] : pull();
    },
    unread: (frame) => (kept = frame),
    close: async () => {
      await it.return?.();
    },
  };
}

/**
 * The frames before a window move the market before anyone trades (the bot is not started, so no
 * channel is read and nothing is published to it); time then stands at `fromMs`.
 */
async function preRoll(frames: FrameReader, session: ReplaySession, fromMs: number): Promise<void> {
  for (let frame = await frames.next(); frame !== undefined; frame = await frames.next()) {
    if (frame.t >= fromMs) {
      frames.unread(frame);
      break;
    }
    await session.time.advanceTo(frame.t);
    session.driven.driveFrame(frame.raw, frame.t);
  }
  await session.time.advanceTo(fromMs);
}

/** Delivers the frames at their recorded times, sampling the tape every `sampleMs`, up to before `toMs`. */
async function driveFrames(
  frames: FrameReader,
  session: ReplaySession,
  tape: ReplayTape,
  sampleMs: number,
  toMs = Number.POSITIVE_INFINITY,
): Promise<{ frames: number; endMs: number | undefined }> {
  let count = 0;
  let endMs: number | undefined;
  let nextSample = Number.NEGATIVE_INFINITY;
  for (let frame = await frames.next(); frame !== undefined && frame.t < toMs;) {
    await session.time.advanceTo(frame.t);
    session.driven.driveFrame(frame.raw, frame.t);
    count++;
    endMs = Math.max(endMs ?? frame.t, frame.t);
    if (frame.t >= nextSample) {
      await session.time.settle();
      tape.sample();
      nextSample = frame.t + sampleMs;
    }
    // A frame of the batch in hand is taken at once: only reading the next batch waits.
    const next = frames.next();
    frame = next instanceof Promise ? await next : next;
  }
  return { frames: count, endMs };
}

/**
 * The markets the replay drives: the recording's (all it holds frames of when it recorded every
 * market). Each configured market must be among them: a strategy on a market the recording never
 * saw would wait for a book that never comes.
 */
function checkMarkets(header: HeaderRecord, configured: readonly number[]): number[] {
  if (header.markets.length === 0) return [...configured];
  const missing = configured.filter((id) => !header.markets.includes(id));
  if (missing.length > 0) {
    throw new PerpbotError(
      `the configured strategies trade market(s) ${missing.join(', ')}, which the recording does not hold (it has ${header.markets.join(', ')})`,
      {
        code: 'CONFIG_MARKET',
        details: { configured, recorded: header.markets },
        hints: [
          'replay with a config whose strategies trade the recorded markets',
          'or record those markets: perpbot record --markets ' + [...header.markets, ...missing].join(','),
        ],
      },
    );
  }
  return [...header.markets].sort((a, b) => a - b);
}

function unknownGrid(ids: readonly number[]): PerpbotError {
  return new PerpbotError(`the replay does not know the grid (tick and step) of market(s) ${ids.join(', ')}`, {
    code: 'CONFIG_MARKET',
    details: { markets: ids },
    hints: [
      "a replay takes each market's tick and step from the simulator's markets (1, 2, 3 and the others it lists)",
    ],
  });
}
