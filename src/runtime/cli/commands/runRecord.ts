import { dirname, join, resolve } from 'node:path';
import type { RunningSim } from '../../../sim/startSim.js';
import type { NonTradingConfig } from '../../config/configSchema.js';
import { recordPublicFeeds, RECORDED_CHANNELS } from '../../recording/recordPublicFeeds.js';
import { recordingLimits } from '../../recording/recordingLimits.js';
import { RecordingWriter } from '../../recording/recordingWriter.js';
import {
  configuredMarkets,
  createCliLogger,
  loadCliNonTradingConfig,
  remoteVenue,
  usesEmbeddedSim,
  type VenueUrls,
} from '../cliContext.js';
import type { CliIo } from '../cliIo.js';
import { CliUsageError } from '../cliUsageError.js';
import type { ParsedArgs } from '../commandSpec.js';
import { startEmbeddedSim } from '../embeddedSim.js';
import { stringFlag } from '../parseCommandArgs.js';

const MB = 1024 * 1024;
const MAX_HOURS = 24 * 366;

/**
 * `perpbot record`: the venue's public channels for the markets, every frame as received, into a
 * rotated gzip recording within its disk budget, until --hours pass or Ctrl-C. Read-only: no keys
 * are loaded and nothing is signed. With profile sim and no URLs it records a simulator of its own.
 */
export async function runRecord(args: ParsedArgs, io: CliIo): Promise<number> {
  const hours = hoursFlag(args);
  const config = await loadCliNonTradingConfig(args, io);
  const markets = marketsFlag(args) ?? configuredMarkets(config);
  const dir = recordingDir(args, config, io);
  const log = createCliLogger(config, io.stderr, config.logging.level === 'silent' ? 'silent' : 'warn');
  let sim: RunningSim | undefined;
  try {
    let venue: VenueUrls;
    if (usesEmbeddedSim(config)) venue = sim = await startEmbeddedSim(config, io.clock, log);
    else venue = remoteVenue(config, 'record');
    await record({ config, io, venue, markets, dir, hours });
    return 0;
  } finally {
    await sim?.close();
  }
}

interface RecordRun {
  readonly config: NonTradingConfig;
  readonly io: CliIo;
  readonly venue: VenueUrls;
  readonly markets: readonly number[];
  readonly dir: string;
  readonly hours: number | undefined;
}

async function record(run: RecordRun): Promise<void> {
  const { io, venue, markets, dir } = run;
  const stop = new AbortController();
  const writer = await RecordingWriter.open({
    dir,
    clock: io.clock,
    description: {
      venue: { profile: run.config.venue.profile, restUrl: venue.restUrl, wsUrl: venue.wsUrl },
      markets: [...markets],
      channels: [...RECORDED_CHANNELS],
    },
    limits: recordingLimits(run.config),
    onRotate: (closed, next) =>
      io.stdout.write(`segment closed: ${closed.path} (${kb(closed.bytes)}, ${closed.records} records); now ${next}\n`),
    onDeleted: (paths) => io.stdout.write(`deleted to stay within recorder.max_disk_mb: ${paths.join(', ')}\n`),
    onError: (error) => {
      io.stderr.write(`${error.message}\n`);
      stop.abort();
    },
  });
  io.stdout.write(
    `recording ${markets.length === 0 ? 'all markets' : `markets ${markets.join(',')}`} (${RECORDED_CHANNELS.join(', ')}) ` +
      `from ${venue.wsUrl} into ${writer.currentPath ?? dir}; ` +
      `${run.hours === undefined ? 'Ctrl-C stops' : `stops after ${run.hours} h or on Ctrl-C`}\n`,
  );
  const onShutdown = (): void => stop.abort();
  io.shutdown.addEventListener('abort', onShutdown, { once: true });
  if (io.shutdown.aborted) stop.abort();
  if (run.hours !== undefined)
    io.clock.sleep(run.hours * 3_600_000, stop.signal).then(
      () => stop.abort(),
      () => undefined,
    );
  try {
    await recordPublicFeeds({
      wsUrl: venue.wsUrl,
      markets,
      writer,
      clock: io.clock,
      signal: stop.signal,
      onConnected: (n) => {
        if (n > 1) io.stdout.write(`reconnected (connection ${n}); frames resume\n`);
      },
      onDropped: (reason, ms) =>
        io.stdout.write(`connection lost (${reason}); gap recorded, reconnecting in ${ms} ms\n`),
      onConnectFailed: (error, ms) =>
        io.stderr.write(`cannot connect to ${venue.wsUrl} (${messageOf(error)}); retrying in ${ms} ms\n`),
    });
  } finally {
    io.shutdown.removeEventListener('abort', onShutdown);
    stop.abort();
    await writer.close();
  }
  io.stdout.write(`recorded ${writer.framesWritten} frames in ${writer.segments} segment(s) into ${dir}\n`);
}

/** --out, else recorder.dir, else `recordings/` beside the journal. */
function recordingDir(args: ParsedArgs, config: NonTradingConfig, io: CliIo): string {
  const out = stringFlag(args, 'out') ?? config.recorder.dir;
  return out === undefined ? join(dirname(resolve(io.cwd, config.journal.path)), 'recordings') : resolve(io.cwd, out);
}

function marketsFlag(args: ParsedArgs): number[] | undefined {
  const text = stringFlag(args, 'markets');
  if (text === undefined) return undefined;
  const ids = text.split(',').map((part) => part.trim());
  if (ids.some((id) => !/^(?:0|[1-9]\d{0,4})$/.test(id) || Number(id) > 65_535)) {
    throw new CliUsageError(`--markets: invalid value ${JSON.stringify(text)}; expected market ids like 1,2`, [
      '`perpbot markets` lists the ids of the venue',
    ]);
  }
  return [...new Set(ids.map(Number))].sort((a, b) => a - b);
}

function hoursFlag(args: ParsedArgs): number | undefined {
  const text = stringFlag(args, 'hours');
  if (text === undefined) return undefined;
  const hours = Number(text);
  if (!/^\d+(?:\.\d+)?$/.test(text) || hours <= 0 || hours > MAX_HOURS) {
    throw new CliUsageError(
      `--hours: invalid value ${JSON.stringify(text)}; expected a positive number of hours up to ${MAX_HOURS}`,
    );
  }
  return hours;
}

function kb(bytes: number): string {
  return bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
