import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { printable } from '../../../core/printable.js';
import { writePrivateFile } from '../../../core/privateFiles.js';
import { replayReportText, type ReplayReport } from '../../replay/replayReport.js';
import { renderReplayHtml, shownTotals } from '../../replay/replayHtml.js';
import { replayRecording } from '../../replay/replayRecording.js';
import { loadStrategies } from '../../bot/wiring/loadStrategies.js';
import { createCliLogger, loadCliConfig } from '../cliContext.js';
import type { CliIo } from '../cliIo.js';
import { CliUsageError } from '../cliUsageError.js';
import type { ParsedArgs } from '../commandSpec.js';
import { booleanFlag, integerFlag, stringFlag } from '../parseCommandArgs.js';

/** Samples of equity, position and price: one a second of recording time. */
const SAMPLE_MS = 1_000;

/**
 * `perpbot replay REC`: the configured strategies through the real engine against the market the
 * recording drives, on a virtual clock; prints a summary and writes report.json and report.html
 * (0600, in a directory it creates 0700). A recording is untrusted input: the reader bounds its
 * lines and inflation and stops on SIGTERM; frames the decoders refused or of markets the header
 * does not list are counted and make the exit 1 unless --allow-bad-frames; what is printed of it
 * has its control characters escaped.
 */
export async function runReplay(args: ParsedArgs, io: CliIo): Promise<number> {
  const rec = resolve(io.cwd, args.positionals[0] ?? '');
  if (!existsSync(rec))
    throw new CliUsageError(`no recording at ${rec}`, [
      'pass the directory `perpbot record` wrote (its --out, or recordings/ beside the journal) or one segment of it',
    ]);
  const config = await loadCliConfig(args, io);
  const fees = feesFlag(args) ?? { maker: config.replay.maker_fee_bps, taker: config.replay.taker_fee_bps };
  const latencyMs = integerFlag(args, 'latency-ms', 0, 60_000) ?? config.replay.latency_ms;
  const out = resolve(io.cwd, stringFlag(args, 'out') ?? join(dirname(rec), `${basename(rec)}.replay`));
  // As `perpbot start`: every module loads and every strategy's params pass its schema first.
  const hosted = await loadStrategies(config, io.cwd);
  const log = createCliLogger(config, io.stderr, config.logging.level === 'silent' ? 'silent' : 'warn');
  let errors = 0;
  const started = io.clock.now();
  const report = await replayRecording({
    path: rec,
    config,
    hosted,
    latencyMs,
    makerFeeBps: fees.maker,
    takerFeeBps: fees.taker,
    balance: config.replay.balance,
    sampleMs: SAMPLE_MS,
    log,
    onError: (error) => {
      errors++;
      log.warn({ err: error }, 'replay: a failure inside the replay machinery');
    },
    signal: io.shutdown,
  });
  const wallMs = Math.max(1, io.clock.now() - started);
  const path = join(out, 'report.json');
  await writePrivateFile(path, replayReportText(report));
  const page = join(out, 'report.html');
  await writePrivateFile(page, renderReplayHtml(report));
  io.stdout.write(summary(report, wallMs, path, page));
  if (errors > 0) io.stderr.write(`${errors} failure(s) inside the replay machinery: see the log above\n`);
  const bad = badFrames(report);
  if (bad !== undefined) io.stderr.write(`perpbot: ${bad}\n`);
  return errors > 0 || (bad !== undefined && !booleanFlag(args, 'allow-bad-frames')) ? 1 : 0;
}

/** The frames the replay could not use, in one line; undefined when there were none. */
function badFrames(report: ReplayReport): string | undefined {
  const { refusedFrames, foreignFrames } = report.recording;
  if (refusedFrames === 0 && foreignFrames === 0) return undefined;
  return (
    `the recording held ${refusedFrames} frame(s) the bot's decoders refused (malformed: a NaN or negative price, ` +
    `a missing field) and ${foreignFrames} of markets its header does not list; the replay ran without them ` +
    '(--allow-bad-frames accepts this with exit 0)'
  );
}

function summary(report: ReplayReport, wallMs: number, path: string, page: string): string {
  const { recording, totals, options } = report;
  const shown = shownTotals(totals);
  const spanMs = recording.endMs - recording.startMs;
  return [
    `replayed ${recording.frames} frames of run ${printable(recording.run.slice(0, 100))} (markets ${recording.markets.join(',')}, ` +
      `${(spanMs / 60_000).toFixed(1)} min) in ${(wallMs / 1000).toFixed(1)} s: ${(spanMs / wallMs).toFixed(0)}x real time`,
    `fees maker ${options.makerFeeBps} bps, taker ${options.takerFeeBps} bps; latency ${options.latencyMs} ms`,
    `orders ${totals.orders}, fills ${totals.fills}, volume ${shown.volume} USDC, fees ${shown.fees}`,
    `realisedPnl ${shown.realisedPnl}, unrealisedPnl ${shown.unrealisedPnl}, netPnl ${shown.netPnl} USDC; ` +
      `maxDrawdown ${shown.maxDrawdown} (exact figures in the report)`,
    `report: ${path}`,
    `page: ${page} (open it in a browser: it needs no network)`,
    '',
  ].join('\n');
}

/** --fee-bps MAKER,TAKER: whole basis points, 0 to 1000 each. */
function feesFlag(args: ParsedArgs): { maker: number; taker: number } | undefined {
  const text = stringFlag(args, 'fee-bps');
  if (text === undefined) return undefined;
  const match = /^(\d{1,4}),(\d{1,4})$/.exec(text.trim());
  const maker = Number(match?.[1]);
  const taker = Number(match?.[2]);
  if (match === null || maker > 1_000 || taker > 1_000) {
    throw new CliUsageError(
      `--fee-bps: invalid value ${JSON.stringify(text)}; expected MAKER,TAKER in whole basis points`,
      ['e.g. --fee-bps 2,5 (maker 2 bps, taker 5 bps of notional)'],
    );
  }
  return { maker, taker };
}
