import { format, inspect, type InspectOptions } from 'node:util';
import { redactText } from '../../../core/redactor.js';
import type { Logger } from './createLogger.js';

type ConsoleMethod = 'log' | 'info' | 'debug' | 'trace' | 'warn' | 'error';

const LEVELS: Readonly<Record<ConsoleMethod, 'info' | 'debug' | 'warn' | 'error'>> = {
  log: 'info',
  info: 'info',
  debug: 'debug',
  trace: 'debug',
  warn: 'warn',
  error: 'error',
};

let installed: { count: number; restore: () => void } | undefined;

/**
 * Sends `console.log` and friends (and `console.dir`, which Node writes without going through
 * `console.log`) through the bot's logger while a bot runs: a strategy (or a library it uses) that
 * prints with console gets the same redaction as every pino line, so a key it prints by accident
 * never reaches stdout in clear, and its lines are JSON like the rest. What is written straight to
 * `process.stdout` or `process.stderr` passes through the same redactor (`redactStreams`). Shared
 * by the bots of one process: the first installs, the last one out restores the console.
 */
export function routeConsoleToLogger(logger: Pick<Logger, 'child'>): () => void {
  if (installed === undefined) installed = { count: 0, restore: install(logger.child({ component: 'console' })) };
  installed.count++;
  let done = false;
  return () => {
    if (done || installed === undefined) return;
    done = true;
    if (--installed.count > 0) return;
    installed.restore();
    installed = undefined;
  };
}

function install(log: Pick<Logger, 'info' | 'debug' | 'warn' | 'error'>): () => void {
  // The functions themselves (not bound copies): restoring puts back exactly what was there.
  const original = new Map<ConsoleMethod | 'dir', unknown>();
  for (const method of Object.keys(LEVELS) as ConsoleMethod[]) {
    original.set(method, Reflect.get(console, method));
    const level = LEVELS[method];
    console[method] = (...args: unknown[]) => log[level]({ console: method }, format(...args));
  }
  original.set('dir', Reflect.get(console, 'dir'));
  console.dir = (item: unknown, options?: InspectOptions) => log.info({ console: 'dir' }, inspect(item, options));
  const restoreStreams = redactStreams([process.stdout, process.stderr]);
  return () => {
    restoreStreams();
    for (const [method, fn] of original) Reflect.set(console, method, fn);
  };
}

/**
 * Every text chunk written to `streams` through the redactor first (the logger's own lines, already
 * redacted, pass unchanged). A secret split across two writes is not seen whole: what perpbot and
 * a strategy print is a line per write.
 */
function redactStreams(streams: readonly NodeJS.WriteStream[]): () => void {
  const originals = streams.map((stream) => {
    const own = Object.prototype.hasOwnProperty.call(stream, 'write');
    const write = Reflect.get(stream, 'write') as (this: NodeJS.WriteStream, ...a: unknown[]) => boolean;
    Reflect.set(stream, 'write', function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      return write.call(this, redactChunk(chunk), ...rest);
    });
    return { stream, own, write };
  });
  return () => {
    for (const { stream, own, write } of originals) {
      if (own) Reflect.set(stream, 'write', write);
      else Reflect.deleteProperty(stream, 'write');
    }
  };
}

function redactChunk(chunk: unknown): unknown {
  if (typeof chunk === 'string') return redactText(chunk);
  if (chunk instanceof Uint8Array) {
    const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
    const redacted = redactText(text);
    return redacted === text ? chunk : Buffer.from(redacted, 'utf8');
  }
  return chunk;
}
