import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whose code is running: the host runs each strategy's hooks, and delivers every value of the
 * streams it gives that strategy, inside the strategy's scope. An error thrown in a strategy's own
 * subscriber (`ctx.streams.mark(1).subscribe(() => { throw ... })`) never reaches the strategy's
 * returned Observable: RxJS reports it later, from a timer, through `config.onUnhandledError`,
 * and a throw in a strategy's timer or promise becomes an uncaught exception or an
 * unhandled rejection. Node carries the scope into those timers and promises, so whoever catches such an
 * error can still tell which strategy it came from (`failCurrentStrategy`). The same through RxJS:
 * strategyScopeStreams.ts (apart, so that what only asks whose code runs, such as the CLI's fatal
 * error handler, loads no RxJS).
 */
export interface StrategyScope {
  readonly strategy: string;
  /** Stops the strategy for this error (its on_error policy applies). */
  fail(error: unknown): void;
}

// undefined is a store of its own: the engine's work, run outside every strategy (`outsideStrategyScope`).
const scopes = new AsyncLocalStorage<StrategyScope | undefined>();

export function runInStrategyScope<T>(scope: StrategyScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/**
 * Runs `fn` outside any strategy's scope (the engine's work, shared upstream subscriptions), as a
 * scope of no strategy: promises made inside carry none either. Not `AsyncLocalStorage.exit`,
 * which on Node 20 turns the process's promise hooks off and on again around every call: about a
 * tenth of a replay's CPU, where every mark a strategy answers goes through here.
 */
export function outsideStrategyScope<T>(fn: () => T): T {
  return scopes.run(undefined, fn);
}

/** The strategy whose code is running (or whose timer, promise or subscriber threw), if any. */
export function currentStrategyScope(): StrategyScope | undefined {
  return scopes.getStore();
}

/** Hands the error to the strategy it came from; false when it came from no strategy. */
export function failCurrentStrategy(error: unknown): boolean {
  const scope = scopes.getStore();
  if (scope === undefined) return false;
  scope.fail(error);
  return true;
}
