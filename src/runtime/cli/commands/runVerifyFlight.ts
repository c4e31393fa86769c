import { resolve } from 'node:path';
import type { InputOrder } from '../../replay/flight/strategyInputs.js';
import { verifyFlight, type FlightDivergence, type FlightVerdict } from '../../replay/flight/verifyFlight.js';
import { createCliLogger, loadCliConfig } from '../cliContext.js';
import type { CliIo } from '../cliIo.js';
import type { ParsedArgs } from '../commandSpec.js';

/** Frames are shown up to this many characters each. */
const FRAME_CHARS = 300;

/**
 * `perpbot replay FLIGHT --verify`: 0 when the replayed strategies made the recorded decisions,
 * 1 at the first that differs.
 */
export async function runVerifyFlight(args: ParsedArgs, io: CliIo): Promise<number> {
  const config = await loadCliConfig(args, io);
  const path = resolve(io.cwd, args.positionals[0] ?? '');
  const logger = createCliLogger(config, io.stderr, config.logging.level === 'silent' ? 'silent' : 'error');
  const verdict = await verifyFlight({ path, config, root: io.cwd, logger });
  io.stdout.write(summaryOf(verdict));
  io.stdout.write(inputsLine(verdict.inputs));
  if (verdict.divergence === undefined) {
    io.stdout.write('0 divergences\n');
    return 0;
  }
  io.stdout.write(describeDivergence(verdict.divergence));
  return 1;
}

function summaryOf(v: FlightVerdict): string {
  return (
    `flight run ${v.run}: ${v.frames} frames, ${v.recordedIntents} intents recorded, ${v.replayedIntents} replayed` +
    (v.unaskedExchanges > 0 ? ` (${v.unaskedExchanges} recorded REST exchanges not asked for by the replay)` : '') +
    '\n'
  );
}

/** Whether the replayed strategies got the recorded inputs in order: where a false divergence would start. */
function inputsLine(inputs: InputOrder): string {
  const first = inputs.firstDifference;
  if (first === undefined)
    return `strategy inputs: ${inputs.recorded} (frames, order events, outcomes), all in the recorded order\n`;
  return (
    `strategy inputs: #${first.index + 1} of ${inputs.recorded} is not the recorded one:\n` +
    `  recorded: ${first.recorded.slice(0, FRAME_CHARS)}\n` +
    `  now: ${first.replayed?.slice(0, FRAME_CHARS) ?? '(none: the replay gave nothing more)'}\n`
  );
}

function describeDivergence(d: FlightDivergence): string {
  const at = (t: number | undefined): string => (t === undefined ? '' : ` at ${new Date(t).toISOString()}`);
  const lines = [
    `divergence at intent #${d.index + 1}:`,
    `  recorded${at(d.recorded?.t)}: ${d.recorded?.canonical ?? '(none: the recorded bot submitted nothing more)'}`,
    `  now${at(d.replayed?.t)}: ${d.replayed?.canonical ?? '(none: the replayed strategies submitted nothing more)'}`,
    `the last ${d.framesBefore.length} frames before it:`,
    ...d.framesBefore.map((f) => `  ${new Date(f.t).toISOString()} ${f.raw.slice(0, FRAME_CHARS)}`),
  ];
  return `${lines.join('\n')}\n`;
}
