import { describe, expect, it } from 'vitest';
import {
  hostHeaderName,
  hostPolicy,
  isLoopbackHost,
} from '../../../../src/runtime/operations/control/controlAccess.js';
import { FailedTokenThrottle } from '../../../../src/runtime/operations/control/failedTokenThrottle.js';

describe('the control server host policy', () => {
  it('reads the name of a Host header without its port', () => {
    expect(hostHeaderName('127.0.0.1:9464')).toBe('127.0.0.1');
    expect(hostHeaderName('LocalHost:9464')).toBe('localhost');
    expect(hostHeaderName('[::1]:9464')).toBe('::1');
    expect(hostHeaderName('::1')).toBe('::1');
    expect(hostHeaderName('evil.test')).toBe('evil.test');
    expect(hostHeaderName(undefined)).toBeUndefined();
    expect(hostHeaderName('  ')).toBeUndefined();
  });

  it('knows loopback addresses and names', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '10.0.0.5', '::', 'example.com', '127.0.0.1.evil.test'])
      expect(isLoopbackHost(host)).toBe(false);
  });

  it('bound to loopback: answers loopback names and listed names only (DNS rebinding sends its own name)', () => {
    const allowed = hostPolicy('127.0.0.1', ['bot.internal']);
    expect(allowed('127.0.0.1:9464')).toBe(true);
    expect(allowed('localhost:9464')).toBe(true);
    expect(allowed('[::1]:9464')).toBe(true);
    expect(allowed('BOT.internal:9464')).toBe(true);
    expect(allowed('rebind.evil.test:9464')).toBe(false);
    expect(allowed('127.0.0.1.evil.test')).toBe(false);
    expect(allowed(undefined)).toBe(false);
  });

  it('bound beyond loopback: any Host unless names are listed (the token guards every route there)', () => {
    expect(hostPolicy('0.0.0.0', [])('whatever.example:9464')).toBe(true);
    const listed = hostPolicy('0.0.0.0', ['bot.example']);
    expect(listed('bot.example')).toBe(true);
    expect(listed('other.example')).toBe(false);
  });
});

describe('FailedTokenThrottle', () => {
  it('refuses an address after five failures until its window has passed, others unaffected', () => {
    let now = 1_000_000;
    const throttle = new FailedTokenThrottle(() => now, 5, 60_000);
    for (let i = 1; i <= 4; i++) {
      expect(throttle.recordFailure('10.0.0.1')).toBe(i);
      expect(throttle.retryAfterMs('10.0.0.1')).toBe(0);
    }
    throttle.recordFailure('10.0.0.1');
    expect(throttle.retryAfterMs('10.0.0.1')).toBe(60_000);
    expect(throttle.retryAfterMs('10.0.0.2')).toBe(0);
    now += 59_000;
    expect(throttle.retryAfterMs('10.0.0.1')).toBe(1_000);
    now += 1_000;
    expect(throttle.retryAfterMs('10.0.0.1')).toBe(0);
    expect(throttle.recordFailure('10.0.0.1')).toBe(1);
  });

  it('remembers a bounded number of addresses', () => {
    const throttle = new FailedTokenThrottle(() => 0, 2, 60_000, 3);
    for (const address of ['b', 'c', 'd', 'e']) {
      throttle.recordFailure(address);
      throttle.recordFailure(address);
    }
    // 'b' was the oldest of four: dropped to keep three.
    expect(throttle.retryAfterMs('b')).toBe(0);
    expect(throttle.retryAfterMs('e')).toBeGreaterThan(0);
  });
});
