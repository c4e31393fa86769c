import { debounceTime, interval, Subject, take, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualTime } from '../../src/testing/virtualTime.js';

describe('virtual time', () => {
  it('runs RxJS timers, intervals and debounces in time order, only when advanced', async () => {
    const time = new VirtualTime(0);
    const seen: string[] = [];
    timer(3_000, time).subscribe(() => seen.push(`timer@${time.now()}`));
    interval(1_000, time)
      .pipe(take(3))
      .subscribe((i) => seen.push(`tick${i}@${time.now()}`));
    const typed = new Subject<string>();
    typed.pipe(debounceTime(500, time)).subscribe((v) => seen.push(`${v}@${time.now()}`));
    typed.next('a');
    typed.next('b');
    expect(seen).toEqual([]);
    await time.advance(2_500);
    expect(seen).toEqual(['b@500', 'tick0@1000', 'tick1@2000']);
    await time.advance(10_000);
    // At the same instant, what was scheduled first runs first (the timer, before the interval's rescheduled tick).
    expect(seen).toEqual(['b@500', 'tick0@1000', 'tick1@2000', 'timer@3000', 'tick2@3000']);
    expect(time.now()).toBe(12_500);
    expect(time.pending).toBe(0);
  });

  it('wakes sleepers in order, lets the promises they resolve run, and honours abort', async () => {
    const time = new VirtualTime(0);
    const order: string[] = [];
    const chain = async () => {
      await time.sleep(100);
      order.push(`a@${time.now()}`);
      await time.sleep(100);
      order.push(`b@${time.now()}`);
    };
    void chain();
    const abort = new AbortController();
    const aborted = time.sleep(150, abort.signal).catch((e: unknown) => order.push(`aborted:${String(e)}`));
    abort.abort('stop');
    await aborted;
    await time.advance(250);
    expect(order).toEqual(['aborted:stop', 'a@100', 'b@200']);
    await expect(time.advance(-1)).rejects.toThrow(RangeError);
  });
});
