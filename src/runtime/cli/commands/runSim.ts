import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CliIo } from '../cliIo.js';
import type { ParsedArgs } from '../commandSpec.js';

// src/runtime/cli/commands -> src/sim/cli.ts
const SIM_CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'sim', 'cli.ts');

function signalNumber(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1;
}

/** Runs src/sim/cli.ts with the same arguments and returns its exit code. */
export async function runSim(_args: ParsedArgs, io: CliIo, raw: readonly string[]): Promise<number> {
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsxLoader, SIM_CLI, ...raw], { stdio: 'inherit', cwd: io.cwd, env: { ...io.env } });
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
