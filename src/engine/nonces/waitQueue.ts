import { abortError } from '../../core/abortError.js';

interface Waiter<T> {
  readonly resolve: (value: T) => void;
  readonly reject: (reason: Error) => void;
  readonly signal: AbortSignal | undefined;
}

interface Watch {
  readonly listener: () => void;
  waiting: number;
}

/**
 * First come, first served waiting for a value that arrives later (the nonce allocator's
 * backpressure), where each waiter may be cancelled by an abort signal. Waiters sharing a signal
 * share one abort listener: a burst of hundreds of intents all waiting on the engine's stop signal
 * would otherwise add and remove a listener per intent, which cost more than the allocation.
 */
export class WaitQueue<T> {
  private waiters: Waiter<T>[] = [];
  private readonly watches = new Map<AbortSignal, Watch>();

  get size(): number {
    return this.waiters.length;
  }

  /** Waits its turn; rejects with the signal's reason (`abortError`) when the signal aborts first. */
  wait(signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    return new Promise<T>((resolve, reject) => {
      this.waiters.push({ resolve, reject, signal });
      if (signal !== undefined) this.watch(signal);
    });
  }

  /** Hands the value to the longest waiter; false when nobody waits. */
  resolveNext(value: T): boolean {
    const waiter = this.waiters.shift();
    if (waiter === undefined) return false;
    if (waiter.signal !== undefined) this.unwatch(waiter.signal);
    waiter.resolve(value);
    return true;
  }

  private watch(signal: AbortSignal): void {
    const watch = this.watches.get(signal);
    if (watch !== undefined) {
      watch.waiting++;
      return;
    }
    const listener = (): void => this.abortWaitersOf(signal);
    this.watches.set(signal, { listener, waiting: 1 });
    signal.addEventListener('abort', listener, { once: true });
  }

  private unwatch(signal: AbortSignal): void {
    const watch = this.watches.get(signal);
    if (watch === undefined || --watch.waiting > 0) return;
    this.watches.delete(signal);
    signal.removeEventListener('abort', watch.listener);
  }

  /** Every waiter of the aborted signal leaves the queue, its promise rejected, in queue order. */
  private abortWaitersOf(signal: AbortSignal): void {
    this.watches.delete(signal);
    const aborted = this.waiters.filter((w) => w.signal === signal);
    this.waiters = this.waiters.filter((w) => w.signal !== signal);
    const reason = abortError(signal.reason);
    for (const waiter of aborted) waiter.reject(reason);
  }
}
