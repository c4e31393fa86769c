import { format } from 'node:util';
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
 * Sends `console.log` and friends through the bot's logger while a bot runs: a strategy (or a
 * library it uses) that prints with console gets the same redaction as every pino line, so a key
 * it prints by accident never reaches stdout in clear, and its lines are JSON like the rest.
 * Shared by the bots of one process: the first installs, the last one out restores the console.
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
  const original = new Map<ConsoleMethod, unknown>();
  for (const method of Object.keys(LEVELS) as ConsoleMethod[]) {
    original.set(method, Reflect.get(console, method));
    const level = LEVELS[method];
    console[method] = (...args: unknown[]) => log[level]({ console: method }, format(...args));
  }
  return () => {
    for (const [method, fn] of original) Reflect.set(console, method, fn);
  };
}
