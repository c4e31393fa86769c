import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PerpbotError } from '../../src/core/perpbotError.js';

/**
 * The simulator as a separate process (`src/sim/cli.ts`, what `npm run sim` runs), so that a
 * client measured against it does not share its event loop with the venue: the client's signing
 * and the venue's signature checks run side by side, as they would against a real venue.
 */
export interface SimProcess {
  readonly restUrl: string;
  readonly wsUrl: string;
  stop(): Promise<void>;
}

export async function startSimProcess(flags: readonly string[]): Promise<SimProcess> {
  const cli = fileURLToPath(new URL('../../src/sim/cli.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', ...flags], { stdio: ['ignore', 'pipe', 'inherit'] });
  const urls = await firstLine(child);
  const match = /REST (\S+) WS (\S+)/.exec(urls);
  if (match === null) {
    child.kill('SIGTERM');
    throw new PerpbotError(`unexpected first line from the simulator: ${urls}`, { code: 'BENCH_SIM_START', hints: ['run npm run sim by hand to see what it prints'] });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    restUrl: match[1]!,
    wsUrl: match[2]!,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString();
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      child.stdout?.off('data', onData);
      resolve(buffered.slice(0, end));
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new PerpbotError(`the simulator exited with code ${code} before listening`, { code: 'BENCH_SIM_START' })));
  });
}
