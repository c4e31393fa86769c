import { writePrivateFile } from '../../../core/privateFiles.js';
import { resolve } from 'node:path';
import { chaosOptionsFromFlags } from './chaosFlags.js';
import { formatChaosReport } from '../../diagnostics/chaos/formatChaosReport.js';
import { reportJson } from '../../diagnostics/chaos/chaosReport.js';
import { runChaos } from '../../diagnostics/chaos/runChaos.js';
import { configPathOf, loadCliConfig } from '../cliContext.js';
import { throwawayAccount } from '../throwawayAccount.js';
import type { CliIo } from '../cliIo.js';
import type { ParsedArgs } from '../commandSpec.js';

/** `perpbot chaos`: the run, the table, the JSON file; exit 1 when an invariant failed, 130 when interrupted. */
export async function runChaosCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const chaos = chaosOptionsFromFlags(args.flags, (path) => resolve(io.cwd, path));
  const config = await loadCliConfig(args, io);
  const report = await runChaos({
    config,
    configPath: configPathOf(args, io),
    chaos,
    cwd: io.cwd,
    env: io.env,
    out: io.stdout,
    tty: 'isTTY' in io.stdout && io.stdout.isTTY === true,
    clock: io.clock,
    signal: io.shutdown,
    makeKeys: throwawayAccount,
  });
  io.stdout.write(formatChaosReport(report));
  if (chaos.jsonPath !== undefined) await writePrivateFile(chaos.jsonPath, reportJson(report));
  if (io.shutdown.aborted) return 130;
  return report.ok ? 0 : 1;
}
