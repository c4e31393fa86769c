// The config object itself, not the package's index: the same module the index (and so every
// subscriber) reads, without loading all of RxJS into commands that never subscribe to anything.
import { config } from 'rxjs/internal/config';
import { failCurrentStrategy } from '../../strategy/strategyScope.js';
import { redactText } from '../../core/redactor.js';

export type FatalOrigin = 'uncaught exception' | 'unhandled rejection' | 'error in an RxJS subscriber';

/**
 * The last line of defence of the CLI process: an error nobody caught (thrown from a timer, a
 * promise nobody awaited, an error RxJS reports from a subscriber callback) goes to the strategy
 * it came from when there is one (that strategy stops per its on_error policy; the others go on),
 * and is otherwise fatal: `onFatal` is called, and the CLI shuts down gracefully and exits
 * non-zero. Returns a function that removes the handlers.
 */
export function installFatalErrorHandlers(onFatal: (error: unknown, origin: FatalOrigin) => void): () => void {
  const route = (origin: FatalOrigin) => (error: unknown) => {
    if (!failCurrentStrategy(error)) onFatal(error, origin);
  };
  const onException = route('uncaught exception');
  const onRejection = route('unhandled rejection');
  const previousRx = config.onUnhandledError;
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  config.onUnhandledError = route('error in an RxJS subscriber');
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
    config.onUnhandledError = previousRx;
  };
}

/** The one line a fatal error prints on stderr (secrets scrubbed, no stack). */
export function formatFatalError(error: unknown, origin: FatalOrigin): string {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `${redactText(`perpbot: fatal ${origin}: ${what.replace(/\s*\n\s*/g, '; ')}; shutting down`)}\n`;
}
