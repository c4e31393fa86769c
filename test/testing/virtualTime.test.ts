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

  it('settles a deep promise chain, and one that goes through a nextTick, before the next due work runs', async () => {
    const time = new VirtualTime(0);
    const seen: string[] = [];
    time.schedule(() => {
      void (async () => {
        for (let i = 0; i < 1_000; i++) await Promise.resolve();
        seen.push('deep chain');
      })();
      process.nextTick(() => void Promise.resolve().then(() => seen.push('through a nextTick')));
    }, 10);
    time.schedule(() => seen.push(`next work@${time.now()}`), 20);
    await time.advance(15);
    expect(seen).toEqual(['deep chain', 'through a nextTick']);
    await time.advance(10);
    expect(seen.at(-1)).toBe('next work@20');
  });

  it('still turns the event loop now and then, so I/O and real timers progress', async () => {
    const time = new VirtualTime(0);
    let immediateRan = false;
    setImmediate(() => (immediateRan = true));
    // Each advance with nothing due is one flush; the event loop turns on some of them.
    for (let i = 0; i < 200 && !immediateRan; i++) await time.advance(1);
    expect(immediateRan).toBe(true);
  });

  it('jumpTo moves the clock at once, running nothing; what fell due meanwhile runs late at the next advance, and time never goes back', async () => {
    const time = new VirtualTime(0);
    const ran: string[] = [];
    void time.sleep(10).then(() => ran.push(`sleeper at ${time.now()}`));
    void time.sleep(5).then(() => {
      // A busy run of work inside a timer: the clock moves past the advance's target.
      time.jumpTo(30);
      ran.push(`busy until ${time.now()}`);
    });
    await time.advance(5);
    expect(ran).toEqual(['busy until 30']);
    expect(time.now()).toBe(30);
    time.jumpTo(20);
    expect(time.now()).toBe(30);
    await time.advance(0);
    expect(ran).toEqual(['busy until 30', 'sleeper at 30']);
  });
});
