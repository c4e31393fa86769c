/**
 * Starts work that nobody awaits. An unhandled rejection ends a Node process, so the caller
 * says what a failure of this work means (log it, fail the strategy, refuse what waits on it):
 * fire-and-forget without that decision is what the lint rule `no-floating-promises` refuses.
 */
export function detach(work: Promise<unknown>, onFailure: (error: unknown) => void): void {
  work.then(undefined, onFailure);
}
