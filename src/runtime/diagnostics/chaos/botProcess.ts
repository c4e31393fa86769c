import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, openSync } from 'node:fs';
import { APPEND_NO_FOLLOW } from '../../../core/privateFiles.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { botEventOf, type BotEvent } from './botTimeline.js';

// src/runtime/diagnostics/chaos -> src/runtime/cli/main.ts, resolved from this package, as `npm start` runs it;
// dist/runtime/cli/main.js in the installed package, which has no TypeScript sources and needs no loader.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const CLI_MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cli', FROM_SOURCE ? 'main.ts' : 'main.js');
const STDERR_TAIL_LINES = 20;

export interface BotProcessOptions {
  readonly run: number;
  readonly configPath: string;
  /** Strategy modules are resolved from here, as for `perpbot start`. */
  readonly cwd: string;
  /** The whole environment of the child: the keys travel here, never on the command line. */
  readonly env: Readonly<Record<string, string>>;
  /** Every line the child writes (stdout and stderr) goes to this file. */
  readonly logPath: string;
  readonly now: () => number;
  readonly onEvent: (event: BotEvent) => void;
}

export interface BotExitStatus {
  readonly code: number | null;
  readonly signal: string | null;
  readonly atMs: number;
}

/**
 * One `perpbot start --config <file>` in a child process (from the sources: node with the tsx
 * loader, like `npm start`; installed: the compiled CLI), its log lines parsed into bot events as they arrive.
 */
export class BotProcess {
  readonly run: number;
  readonly startedAtMs: number;
  /** True at the `bot running` line; false when the process ended first. */
  readonly ready: Promise<boolean>;
  /** Resolves once the process ended and its output was read to the end. */
  readonly exited: Promise<BotExitStatus>;
  private readonly child: ChildProcess;
  private readonly stderrLines: string[] = [];
  private exitStatus: BotExitStatus | undefined;
  private readyNow = false;

  constructor(options: BotProcessOptions) {
    this.run = options.run;
    this.startedAtMs = options.now();
    const loader = FROM_SOURCE ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
    this.child = spawn(process.execPath, [...loader, CLI_MAIN, 'start', '--config', options.configPath], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Opened here with O_NOFOLLOW (a symlink at the log's path is refused): the stream takes the descriptor.
    const log = createWriteStream('', { fd: openSync(options.logPath, APPEND_NO_FOLLOW, 0o600) });
    // A log that cannot be written (a full disk) is said once beside the bot's stderr; the bot and
    // the run go on (unheard, the stream's 'error' would end this process).
    log.once('error', (error) =>
      this.stderrLines.push(`the bot's log ${options.logPath} could not be written (${error.message})`),
    );
    let onReady: (ready: boolean) => void = () => {};
    this.ready = new Promise((resolve) => (onReady = resolve));
    const stdout = createInterface({ input: this.child.stdout! });
    stdout.on('line', (line) => {
      log.write(`${line}\n`);
      const event = botEventOf(line, options.run);
      if (event === undefined) return;
      if (event.type === 'ready') {
        this.readyNow = true;
        onReady(true);
      }
      options.onEvent(event);
    });
    const stderr = createInterface({ input: this.child.stderr! });
    stderr.on('line', (line) => {
      log.write(`${line}\n`);
      this.stderrLines.push(line);
      if (this.stderrLines.length > STDERR_TAIL_LINES) this.stderrLines.shift();
    });
    this.exited = new Promise((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (this.exitStatus !== undefined) return;
        this.exitStatus = { code, signal, atMs: options.now() };
        onReady(false);
        log.end(() => resolve(this.exitStatus!));
      };
      this.child.once('close', done);
      this.child.once('error', (error) => {
        this.stderrLines.push(`could not start the bot: ${error.message}`);
        done(null, null);
      });
    });
  }

  /** The bot has logged `bot running` (its strategies started). */
  get isReady(): boolean {
    return this.readyNow;
  }

  get running(): boolean {
    return this.exitStatus === undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends a signal to the child (a no-op once it ended). */
  signal(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /** The last lines the child wrote to stderr, for an error message. */
  stderrTail(): string {
    return this.stderrLines.join('\n');
  }
}
