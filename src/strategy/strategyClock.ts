import { asyncScheduler, interval, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { Clock } from '../core/clock.js';

/**
 * Time as a strategy gets it (`ctx.clock`): the engine's clock plus an RxJS scheduler on the same
 * time. Pass `ctx.clock.scheduler` to RxJS's timing operators (`timer`, `interval`, `delay`,
 * `debounceTime`, `bufferTime`, `timeout`...), or use `ctx.clock.timer` / `ctx.clock.interval`:
 * in production they run on the wall clock, in the test kit on virtual time, so a one-hour schedule
 * is tested in milliseconds. A timing operator without the scheduler runs on the wall clock even
 * in a test.
 */
export interface StrategyClock extends Clock {
  readonly scheduler: SchedulerLike;
  /** Emits 0 after `dueMs`, then (with `periodMs`) 1, 2, ... every `periodMs`. */
  timer(dueMs: number, periodMs?: number): Observable<number>;
  /** Emits 0, 1, 2, ... every `periodMs`, the first after one period. */
  interval(periodMs: number): Observable<number>;
}

export function strategyClock(clock: Clock, scheduler: SchedulerLike = asyncScheduler): StrategyClock {
  return Object.freeze({
    now: () => clock.now(),
    sleep: (ms: number, signal?: AbortSignal) => clock.sleep(ms, signal),
    scheduler,
    timer: (dueMs: number, periodMs?: number) =>
      periodMs === undefined ? timer(dueMs, scheduler) : timer(dueMs, periodMs, scheduler),
    interval: (periodMs: number) => interval(periodMs, scheduler),
  });
}
