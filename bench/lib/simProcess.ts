import { spawn, type ChildProcess } from 'node:child_process';
import { basename } from 'node:path';
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
  readonly pid: number;
  /** SIGTERM: the simulator closes and exits by itself (so a --cpu-prof profile gets written). */
  stop(): Promise<void>;
}

export interface NodeProcessOptions {
  /** Flags for node itself, before the script (e.g. `--cpu-prof`). */
  readonly nodeFlags?: readonly string[];
}

export async function startSimProcess(flags: readonly string[], options: NodeProcessOptions = {}): Promise<SimProcess> {
  const started = await startListeningProcess(
    new URL('../../src/sim/cli.ts', import.meta.url),
    ['--port', '0', ...flags],
    options,
  );
  const match = /REST (\S+) WS (\S+)/.exec(started.firstLine);
  if (match === null) {
    await started.stop();
    throw new PerpbotError(`unexpected first line from the simulator: ${started.firstLine}`, {
      code: 'BENCH_SIM_START',
      hints: ['run npm run sim by hand to see what it prints'],
    });
  }
  return { restUrl: match[1]!, wsUrl: match[2]!, pid: started.child.pid ?? 0, stop: started.stop };
}

export interface ListeningProcess {
  /** The first line the process printed on stdout (its URLs). */
  readonly firstLine: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** A TypeScript script run by node through tsx, up once it has printed its first line. */
export async function startListeningProcess(
  script: URL,
  args: readonly string[],
  options: NodeProcessOptions = {},
): Promise<ListeningProcess> {
  const path = fileURLToPath(script);
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', path, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let line: string;
  try {
    line = await firstLine(child, basename(path));
  } catch (error) {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw error;
  }
  return {
    firstLine: line,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function firstLine(child: ChildProcess, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString();
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      child.stdout?.off('data', onData);
      // Keep draining stdout so a chatty child never blocks on a full pipe.
      child.stdout?.resume();
      resolve(buffered.slice(0, end));
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) =>
      reject(
        new PerpbotError(`${name} exited with code ${code} before listening`, {
          code: 'BENCH_PROCESS_START',
          hints: [`run node --import tsx ${name} by hand to see why`],
        }),
      ),
    );
  });
}
