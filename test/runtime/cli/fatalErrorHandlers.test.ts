import { config } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { registerSecret } from '../../../src/core/secretRegistry.js';
import {
  formatFatalError,
  installFatalErrorHandlers,
  type FatalOrigin,
} from '../../../src/runtime/cli/fatalErrorHandlers.js';
import { runInStrategyScope } from '../../../src/strategy/strategyScope.js';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function install() {
  const fatal: [string, FatalOrigin][] = [];
  uninstall = installFatalErrorHandlers((error, origin) => fatal.push([(error as Error).message, origin]));
  return fatal;
}

describe('installFatalErrorHandlers', () => {
  it.each([
    ['error in an RxJS subscriber', (e: Error) => config.onUnhandledError?.(e)],
    ['unhandled rejection', (e: Error) => process.emit('unhandledRejection', e, Promise.resolve())],
    ['uncaught exception', (e: Error) => process.emit('uncaughtException', e)],
  ] as const)('an %s from no strategy is fatal; from a strategy it stops that strategy', (origin, raise) => {
    const fatal = install();
    const failed: string[] = [];
    runInStrategyScope({ strategy: 'a', fail: (e) => failed.push((e as Error).message) }, () =>
      raise(new Error('in a')),
    );
    raise(new Error('nowhere'));
    expect(failed).toEqual(['in a']);
    expect(fatal).toEqual([['nowhere', origin]]);
  });

  it('removes its handlers', () => {
    const before = [
      process.listenerCount('uncaughtException'),
      process.listenerCount('unhandledRejection'),
      config.onUnhandledError,
    ];
    install();
    uninstall?.();
    uninstall = undefined;
    expect([
      process.listenerCount('uncaughtException'),
      process.listenerCount('unhandledRejection'),
      config.onUnhandledError,
    ]).toEqual(before);
  });
});

describe('formatFatalError', () => {
  it('is one line with the origin and the reason, and no secret', () => {
    const key = `0x${'ab'.repeat(32)}`;
    registerSecret(key); // as the bot does when it loads its keys
    expect(formatFatalError(new TypeError(`bad\nkey ${key}`), 'unhandled rejection')).toBe(
      'perpbot: fatal unhandled rejection: TypeError: bad; key [redacted]; shutting down\n',
    );
    expect(formatFatalError('text', 'uncaught exception')).toBe(
      'perpbot: fatal uncaught exception: text; shutting down\n',
    );
  });
});
