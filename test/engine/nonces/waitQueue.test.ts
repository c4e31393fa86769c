import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AbortedError } from '../../../src/core/abortError.js';
import { WaitQueue } from '../../../src/engine/nonces/waitQueue.js';

describe('WaitQueue', () => {
  it('hands values to waiters first come, first served', async () => {
    const queue = new WaitQueue<number>();
    const a = queue.wait();
    const b = queue.wait();
    expect(queue.size).toBe(2);
    expect(queue.resolveNext(1)).toBe(true);
    expect(queue.resolveNext(2)).toBe(true);
    expect(queue.resolveNext(3)).toBe(false);
    expect(await Promise.all([a, b])).toEqual([1, 2]);
    expect(queue.size).toBe(0);
  });

  it('rejects with its reason every waiter of an aborted signal and keeps the others in order', async () => {
    const queue = new WaitQueue<number>();
    const stop = new AbortController();
    const other = new AbortController();
    const a = queue.wait(stop.signal);
    const b = queue.wait(other.signal);
    const c = queue.wait(stop.signal);
    const d = queue.wait();
    stop.abort(new Error('stopping'));
    await expect(a).rejects.toThrow('stopping');
    await expect(c).rejects.toThrow('stopping');
    expect(queue.size).toBe(2);
    queue.resolveNext(7);
    queue.resolveNext(8);
    expect(await Promise.all([b, d])).toEqual([7, 8]);
  });

  it('refuses at once when the signal has already aborted', async () => {
    const queue = new WaitQueue<number>();
    await expect(queue.wait(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
    expect(queue.size).toBe(0);
  });

  it('rejects with an AbortedError carrying the reason when the reason is not an Error', async () => {
    const queue = new WaitQueue<number>();
    const stop = new AbortController();
    const waiting = queue.wait(stop.signal);
    stop.abort('shutting down');
    const error: unknown = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ code: 'ABORTED', message: 'shutting down', cause: 'shutting down' });
    const already: unknown = await queue.wait(AbortSignal.abort(42)).catch((e: unknown) => e);
    expect(already).toMatchObject({ code: 'ABORTED', cause: 42 });
  });

  it('listens on a shared signal once, and stops listening when its last waiter is served', async () => {
    const queue = new WaitQueue<number>();
    const stop = new AbortController();
    const waits = Array.from({ length: 50 }, () => queue.wait(stop.signal));
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    for (let i = 0; i < 50; i++) queue.resolveNext(i);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    expect(await Promise.all(waits)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    // A later abort does not reject a served waiter, and the queue listens again for new waiters.
    const late = queue.wait(stop.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    stop.abort(new Error('later'));
    await expect(late).rejects.toThrow('later');
  });
});
