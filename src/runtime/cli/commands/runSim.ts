import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseSimCliArgs, SIM_CLI_HELP } from '../../../sim/simCliArgs.js';
import type { CliIo } from '../cliIo.js';
import { CliUsageError } from '../cliUsageError.js';
import type { ParsedArgs } from '../commandSpec.js';

// src/runtime/cli/commands -> src/sim/cli.ts (dist/sim/cli.js in the installed package: no loader needed).
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const SIM_CLI = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'sim',
  FROM_SOURCE ? 'cli.ts' : 'cli.js',
);

function signalNumber(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1;
}

/** The simulator's own help under the name it runs by here (its usage line names `npm run sim`). */
export function simHelp(): string {
  return SIM_CLI_HELP.replace(/^Usage: .*\n/, 'Usage: perpbot sim [options]   (or: npm run sim -- [options])\n');
}

/**
 * Runs src/sim/cli.ts with the same arguments and returns its exit code. The arguments are checked
 * here first, so `--help` and a bad flag answer as `perpbot sim` without starting a process.
 */
export async function runSim(_args: ParsedArgs, io: CliIo, raw: readonly string[]): Promise<number> {
  let help: boolean;
  try {
    help = parseSimCliArgs(raw).help;
  } catch (error) {
    throw new CliUsageError(`sim: ${error instanceof Error ? error.message : String(error)}`, [
      'run perpbot sim --help',
    ]);
  }
  if (help) {
    io.stdout.write(simHelp());
    return 0;
  }
  const loader = FROM_SOURCE ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  const child = spawn(process.execPath, [...loader, SIM_CLI, ...raw], {
    stdio: 'inherit',
    cwd: io.cwd,
    env: { ...io.env },
  });
  const forward = (): void => {
    child.kill('SIGTERM');
  };
  io.shutdown.addEventListener('abort', forward, { once: true });
  try {
    return await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128 + signalNumber(signal))));
    });
  } finally {
    io.shutdown.removeEventListener('abort', forward);
  }
}
