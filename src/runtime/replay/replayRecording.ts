import { PerpbotError } from '../../core/perpbotError.js';
import type { HostedStrategy, HostLogger } from '../../strategy/strategyHost.js';
import type { Config } from '../config/configSchema.js';
import { readRecording } from '../recording/readRecording.js';
import { PUBLIC_SOURCE } from '../recording/recordPublicFeeds.js';
import { RecordingError } from '../recording/recordingError.js';
import type { HeaderRecord, RecordingRecord } from '../recording/recordingRecords.js';
import type { ReplayReport } from './replayReport.js';
import { marketDefinitions, ReplaySession } from './replaySession.js';
import { ReplayTape } from './replayTape.js';

export interface ReplayOptions {
  /** A recording directory (its segments, oldest first) or one segment file. */
  readonly path: string;
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
  const records = readRecording(o.path, o.signal === undefined ? {} : { signal: o.signal });
  const header = await firstHeader(records, o.path);
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
  await session.start();
  const driven = await driveFrames(records, header.run, session, tape, o.sampleMs);
  const endMs = driven.endMs ?? header.startedAt;
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
      startMs: header.startedAt,
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
    })),
    totals,
    series,
  };
}

/**
 * Delivers the run's public frames at their recorded times, sampling the tape every `sampleMs`.
 * A directory may hold segments of other runs (the recorder keeps them within its budget): only
 * the segments whose header names `run` are replayed.
 */
async function driveFrames(
  records: AsyncGenerator<RecordingRecord>,
  run: string,
  session: ReplaySession,
  tape: ReplayTape,
  sampleMs: number,
): Promise<{ frames: number; endMs: number | undefined }> {
  let frames = 0;
  let endMs: number | undefined;
  let nextSample = Number.NEGATIVE_INFINITY;
  let inRun = true;
  for await (const record of records) {
    if (record.type === 'header') inRun = record.run === run;
    if (!inRun || record.type !== 'frame' || record.src !== PUBLIC_SOURCE) continue;
    await session.time.advanceTo(record.t);
    session.driven.driveFrame(record.raw, record.t);
    frames++;
    endMs = Math.max(endMs ?? record.t, record.t);
    if (record.t >= nextSample) {
      await session.time.settle();
      tape.sample();
      nextSample = record.t + sampleMs;
    }
  }
  return { frames, endMs };
}

async function firstHeader(records: AsyncGenerator<RecordingRecord>, path: string): Promise<HeaderRecord> {
  const first = await records.next();
  if (first.done === true || first.value.type !== 'header') {
    throw new RecordingError(`${path} does not start with a recording header`, {
      code: 'RECORDING_FORMAT',
      details: { path },
      hints: ['replay a directory or segment written by `perpbot record`'],
    });
  }
  return first.value;
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
