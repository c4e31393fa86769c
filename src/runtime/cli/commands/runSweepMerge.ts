import { resolve } from 'node:path';
import { mergeStudies } from '../../sweep/mergeStudies.js';
import { formatSweepSummary, writeSweepOutputs } from '../../sweep/sweepOutputs.js';
import type { CliIo } from '../cliIo.js';
import { CliUsageError } from '../cliUsageError.js';
import type { ParsedArgs } from '../commandSpec.js';
import { stringFlag } from '../parseCommandArgs.js';

/** `perpbot sweep merge SHARD_DIR... --out DIR`: the shards' studies joined, then ranked as one sweep. */
export function runSweepMerge(args: ParsedArgs, io: CliIo): Promise<number> {
  const shards = args.positionals.slice(1).map((p) => resolve(io.cwd, p));
  const outFlag = stringFlag(args, 'out');
  if (shards.length === 0 || outFlag === undefined)
    throw new CliUsageError('perpbot sweep merge: give the shard directories and --out', [
      'usage: perpbot sweep merge SHARD_DIR... --out DIR',
    ]);
  const out = resolve(io.cwd, outFlag);
  const merged = mergeStudies(shards, out);
  const outputs = writeSweepOutputs(out, merged.study);
  io.stdout.write(
    `merged ${shards.length} shard(s): ${merged.study.results.size} results, ${merged.reportsCopied} reports copied` +
      `${merged.reportsMissing > 0 ? ` (${merged.reportsMissing} not in the shard directories)` : ''}\n` +
      formatSweepSummary(outputs.summary, { page: outputs.page, best: outputs.best, study: merged.studyPath }),
  );
  return Promise.resolve(0);
}
