import type { BotRun } from '../botTimeline.js';
import type { InvariantResult } from './invariant.js';

/**
 * The bot process only ever ended when told to: the planned crash (killed by SIGKILL) and the
 * final stop (SIGINT, then exit code 0 within the stop timeout). Anything else, an exit of its
 * own, a stop that failed or had to be forced, is unexpected.
 */
export function processExits(runs: readonly BotRun[]): InvariantResult {
  const unexpected = runs.filter((r) => r.exit !== undefined && !isExpected(r.exit));
  const describe = (r: BotRun): string => {
    const exit = r.exit;
    if (exit === undefined) return `run ${r.run}: still running`;
    const how = exit.signal !== null ? `killed by ${exit.signal}` : `exit code ${String(exit.code)}`;
    const what =
      exit.planned === 'stop'
        ? exit.forced === true
          ? 'stop did not finish in time, '
          : 'on the final stop, '
        : exit.planned === 'crash'
          ? 'at the planned crash, '
          : 'by itself, ';
    return `run ${r.run}: ${what}${how}`;
  };
  return {
    id: 'process_exits',
    title: 'unexpected process exits',
    ok: unexpected.length === 0,
    measured: `${unexpected.length} of ${runs.filter((r) => r.exit !== undefined).length} exits`,
    ...(unexpected.length === 0 ? {} : { detail: unexpected.map(describe).join('; ') }),
    data: {
      runs: runs.length,
      exits: runs.map((r) => ({
        run: r.run,
        code: r.exit?.code ?? null,
        signal: r.exit?.signal ?? null,
        planned: r.exit?.planned ?? null,
        forced: r.exit?.forced ?? false,
      })),
      unexpected: unexpected.length,
    },
  };
}

function isExpected(exit: NonNullable<BotRun['exit']>): boolean {
  if (exit.planned === 'crash') return exit.signal === 'SIGKILL';
  if (exit.planned === 'stop') return exit.forced !== true && exit.code === 0;
  return false;
}
