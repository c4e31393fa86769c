import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../../src/sim/simContext.js';
import { SimEventBatcher } from '../../../src/sim/ws/simEventBatcher.js';

const block = (blockNumber: number): SimEvent => ({
  type: 'block',
  blockNumber,
  timestampMs: blockNumber * 1_000,
  txHash: `0x${blockNumber.toString(16).padStart(64, '0')}`,
});

const nextMicrotask = (): Promise<void> => new Promise((resolve) => queueMicrotask(resolve));

describe('SimEventBatcher', () => {
  it('publishes the events of one synchronous run together, after it, and starts a new batch next run', async () => {
    const batches: number[][] = [];
    const batcher = new SimEventBatcher(
      { publish: (events) => batches.push(events.map((e) => e.blockNumber)) },
      () => {},
    );
    batcher.push(block(1));
    batcher.push(block(2));
    expect(batches).toEqual([]);
    await nextMicrotask();
    expect(batches).toEqual([[1, 2]]);
    batcher.push(block(3));
    await nextMicrotask();
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it('a failing fan-out is reported and costs that batch only', async () => {
    const errors: unknown[] = [];
    const published: number[] = [];
    const failure = new Error('fan-out bug');
    const batcher = new SimEventBatcher(
      {
        publish: (events) => {
          if (events.some((e) => e.blockNumber === 1)) throw failure;
          published.push(...events.map((e) => e.blockNumber));
        },
      },
      (error) => errors.push(error),
    );
    batcher.push(block(1));
    await nextMicrotask();
    batcher.push(block(2));
    await nextMicrotask();
    expect(errors).toEqual([failure]);
    expect(published).toEqual([2]);
  });
});
