import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import type { Clock } from '../core/clock.js';
import { abortError } from '../core/abortError.js';

interface Entry {
  readonly at: number;
  readonly seq: number;
  readonly action: VirtualAction<unknown>;
}

/** One scheduled piece of work; `schedule` again (as `interval` does) moves it to a later time. */
class VirtualAction<T> extends Subscription implements SchedulerAction<T> {
  seq = -1;
  private state: T | undefined;

  constructor(
    private readonly time: VirtualTime,
    private readonly work: (this: SchedulerAction<T>, state?: T) => void,
  ) {
    super();
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.state = state;
    this.time.enqueue(this as VirtualAction<unknown>, delay);
    return this;
  }

  execute(): void {
    if (this.closed) return;
    this.work.call(this, this.state);
  }
}

/**
 * Virtual time for tests: one clock that is both perpbot's `Clock` (`now`, `sleep`) and an RxJS
 * scheduler, so `timer(60_000, ctx.clock.scheduler)` and `ctx.clock.sleep(60_000)` wait for
 * `advance`, not for the wall clock. `advance(ms)` runs everything due in time order, letting
 * promises settle between steps, so an hour of a strategy's schedule runs in milliseconds.
 */
export class VirtualTime implements Clock, SchedulerLike {
  private current: number;
  private seq = 0;
  private queue: Entry[] = [];

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    return new VirtualAction<T>(this, work).schedule(state, delay);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        action.unsubscribe();
        reject(abortError(signal?.reason));
      };
      const action = this.schedule(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** @internal Places an action at now + delay; a later schedule of the same action replaces the earlier. */
  enqueue(action: VirtualAction<unknown>, delay: number): void {
    action.seq = ++this.seq;
    this.queue.push({ at: this.current + Math.max(0, delay), seq: action.seq, action });
  }

  /** Moves time forward by `ms`, running everything due on the way, in order. */
  async advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError(`advance needs a non-negative duration, got ${ms}`);
    await this.runUntil(this.current + ms);
  }

  /** Moves time to `atMs` (not backwards). */
  advanceTo(atMs: number): Promise<void> {
    // runUntil's own promise, not another async frame around it: a replay moves time once a frame.
    return this.runUntil(Math.max(this.current, atMs));
  }

  /**
   * Moves the clock to `atMs` at once (not backwards) and runs nothing: the time one synchronous
   * piece of work took on a recorded bot's clock (a busy event loop). What fell due meanwhile runs
   * at the next advance, late, as it would have then.
   */
  jumpTo(atMs: number): void {
    this.current = Math.max(this.current, atMs);
  }

  /** Lets pending promises and work due now run, without moving time. */
  settle(): Promise<void> {
    return this.runUntil(this.current);
  }

  /** Scheduled work not yet run (sleeps, timers, intervals). */
  /**
   * Waits for `work` while time moves on in 100 ms steps (at most `limitMs`); with `advance` false
   * it only settles. A failure of `work` is thrown after the settle.
   */
  async untilSettled(work: Promise<unknown>, limitMs = 60_000, advance = true): Promise<void> {
    let finished = false;
    let failure: { error: unknown } | undefined;
    work.then(
      () => (finished = true),
      (error: unknown) => {
        finished = true;
        failure = { error };
      },
    );
    await this.settle();
    const limit = this.now() + limitMs;
    while (advance && !finished && this.now() < limit) await this.advance(100);
    if (failure !== undefined) throw failure.error;
  }

  get pending(): number {
    this.queue = this.queue.filter((e) => e.seq === e.action.seq && !e.action.closed);
    return this.queue.length;
  }

  private async runUntil(target: number): Promise<void> {
    let ran = false;
    for (;;) {
      await flushPromises();
      const next = this.nextDue(target);
      if (next === undefined) break;
      this.current = Math.max(this.current, next.at);
      next.action.execute();
      ran = true;
    }
    // Not back: a jump (`jumpTo`) during the run may have moved the clock past the target.
    this.current = Math.max(this.current, target);
    // Promises have just settled and nothing ran since: a second flush would find nothing to do
    // (it cost a replay an event-loop turn per recorded frame).
    if (ran) await flushPromises();
  }

  private nextDue(target: number): Entry | undefined {
    let best: Entry | undefined;
    let index = -1;
    for (let i = 0; i < this.queue.length; i++) {
      const e = this.queue[i]!;
      if (e.seq !== e.action.seq || e.action.closed) continue;
      if (e.at > target) continue;
      if (best === undefined || e.at < best.at || (e.at === best.at && e.seq < best.seq)) {
        best = e;
        index = i;
      }
    }
    if (best !== undefined) {
      this.queue.splice(index, 1);
      // Stale entries (rescheduled or closed actions) are dropped as time passes.
      if (this.queue.length > 64) this.queue = this.queue.filter((e) => e.seq === e.action.seq && !e.action.closed);
    }
    return best;
  }
}

let flushes = 0;

/**
 * Lets every queued promise reaction run. A `process.nextTick` callback runs only once the
 * microtask queue is empty, so awaiting one settles every promise chain queued so far; the second
 * settles a chain that went through a nextTick of its own (as Node's streams do). Every
 * `TURN_EVERY`th flush is a whole event-loop turn, so I/O (the recording's reader inflates on the
 * thread pool) and real timers still progress. A turn on every flush was about a tenth of a replay.
 */
async function flushPromises(): Promise<void> {
  flushes = (flushes + 1) % TURN_EVERY;
  if (flushes === 0) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return;
  }
  await new Promise<void>((resolve) => process.nextTick(resolve));
  await new Promise<void>((resolve) => process.nextTick(resolve));
}

const TURN_EVERY = 64;
