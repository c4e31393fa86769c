import { config, Observable, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';
import { failCurrentStrategy, outsideStrategyScope, runInStrategyScope, type StrategyScope } from './strategyScope.js';

/**
 * A stream as one strategy sees it: subscribed upstream outside the strategy's scope (a shared
 * source's connection and timers belong to no strategy), every notification delivered inside it,
 * and every subscription owned by `owner` so that stopping the strategy ends them all, including
 * those it made itself and never returned.
 */
export function inStrategyScope<T>(scope: StrategyScope, owner: Subscription): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const upstream = outsideStrategyScope(() =>
        source.subscribe({
          next: (value) => runInStrategyScope(scope, () => subscriber.next(value)),
          error: (error: unknown) => runInStrategyScope(scope, () => subscriber.error(error)),
          complete: () => runInStrategyScope(scope, () => subscriber.complete()),
        }),
      );
      owner.add(upstream);
      return () => {
        owner.remove(upstream);
        upstream.unsubscribe();
      };
    });
}

/** The handler this module installed, and so whether it is still the one in force. */
let installed: ((error: unknown) => void) | undefined;

/**
 * Routes errors RxJS reports from subscriber callbacks to the strategy they came from; any other
 * goes on to the handler installed before (the runtime's fatal-error handler) or, with none, is
 * thrown as RxJS does by default. Each host's start installs it unless it is still in force (code
 * that replaced RxJS's handler since would otherwise take the strategies' errors with it);
 * harmless outside a strategy.
 */
export function containStrategyErrors(): void {
  if (installed !== undefined && config.onUnhandledError === installed) return;
  const previous = config.onUnhandledError;
  installed = (error: unknown) => {
    if (failCurrentStrategy(error)) return;
    if (previous !== null) previous(error);
    else throw error;
  };
  config.onUnhandledError = installed;
}
