import { describe, expect, it } from 'vitest';
import { detach } from '../../src/core/detach.js';

describe('detach', () => {
  it('hands a promise rejection to onFailure instead of leaving it unhandled', async () => {
    const failures: unknown[] = [];
    const boom = new Error('boom');
    detach(Promise.reject(boom), (error) => failures.push(error));
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual([boom]);
  });

  it('calls nothing when the work succeeds', async () => {
    const failures: unknown[] = [];
    detach(Promise.resolve(1), (error) => failures.push(error));
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual([]);
  });
});
