import { describe, expect, it } from 'vitest';
import { Teardown } from '../../src/core/teardown.js';

describe('Teardown', () => {
  it('releases last registered first, after the body, when the body succeeds', async () => {
    const order: string[] = [];
    const teardown = new Teardown();
    await teardown.around(async () => {
      teardown.add(() => order.push('lock'));
      teardown.add(async () => {
        await Promise.resolve();
        order.push('service');
      });
      order.push('body');
    });
    expect(order).toEqual(['body', 'service', 'lock']);
  });

  it('releases what was acquired before a step failed, and rethrows the failure', async () => {
    const order: string[] = [];
    const teardown = new Teardown();
    const failure = new Error('venue down');
    await expect(
      teardown.around(async () => {
        teardown.add(() => order.push('lock'));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(order).toEqual(['lock']);
  });

  it('as nested finally blocks: a release that throws replaces the error, and earlier releases still run', async () => {
    const order: string[] = [];
    const teardown = new Teardown();
    const closeFailed = new Error('close failed');
    await expect(
      teardown.around(async () => {
        teardown.add(() => order.push('lock'));
        teardown.add(() => {
          throw closeFailed;
        });
        throw new Error('body failed');
      }),
    ).rejects.toBe(closeFailed);
    expect(order).toEqual(['lock']);
  });
});
