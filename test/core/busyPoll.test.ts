import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BusyPoll } from '../../src/core/busyPoll.js';

/** Virtual time and a frame counter; each `step` runs the loop's pending callbacks once (one spin). */
function rig(windowMs = 50, parkCheckMs = 10) {
  let now = 0;
  let frames = 0;
  const poll = new BusyPoll({ windowMs, parkCheckMs, activity: () => frames, now: () => now });
  return {
    poll,
    at: (ms: number) => (now = ms),
    frame: () => frames++,
    step: () => vi.runOnlyPendingTimers(),
    pending: () => vi.getTimerCount(),
  };
}

describe('BusyPoll', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps an immediate queued (the loop never blocks) until the window passes with no activity, then parks', () => {
    const r = rig(50);
    r.poll.start();
    expect(r.poll.current).toBe('spinning');
    r.at(49);
    r.step();
    expect(r.poll.current).toBe('spinning');
    expect(r.pending()).toBe(1);
    r.at(50);
    r.step();
    expect(r.poll.current).toBe('parked');
  });

  it('counts the window from the last activity, not from the start', () => {
    const r = rig(50);
    r.poll.start();
    r.at(40);
    r.frame();
    r.step();
    r.at(89);
    r.step();
    expect(r.poll.current).toBe('spinning');
    r.at(90);
    r.step();
    expect(r.poll.current).toBe('parked');
  });

  it('while parked, looks every parkCheckMs and spins again once activity moved', () => {
    const r = rig(50, 10);
    r.poll.start();
    r.at(50);
    r.step();
    expect(r.poll.current).toBe('parked');
    r.at(200);
    r.step(); // a look with nothing new: still parked, the next look queued
    expect(r.poll.current).toBe('parked');
    expect(r.pending()).toBe(1);
    r.frame();
    r.step();
    expect(r.poll.current).toBe('spinning');
    // The window counts from the resumption.
    r.at(249);
    r.step();
    expect(r.poll.current).toBe('spinning');
  });

  it('stop() leaves nothing queued, whether spinning or parked, and a stopped poll can start again', () => {
    const r = rig(50);
    r.poll.start();
    r.poll.stop();
    expect(r.poll.current).toBe('stopped');
    expect(r.pending()).toBe(0);
    r.poll.start();
    r.at(60);
    r.step();
    expect(r.poll.current).toBe('parked');
    r.poll.stop();
    expect(r.pending()).toBe(0);
  });

  it('refuses a window that is not positive', () => {
    expect(() => new BusyPoll({ windowMs: 0, activity: () => 0 })).toThrow(/windowMs must be > 0, got 0/);
  });
});

describe('BusyPoll on the real event loop', () => {
  it('holds the process alive while it spins, and a poll nobody stops lets it exit once parked', async () => {
    const module = resolve(import.meta.dirname, '..', '..', 'src', 'core', 'busyPoll.ts');
    const script = [
      `const { BusyPoll } = await import(${JSON.stringify(module)});`,
      'const started = performance.now();',
      // A window far longer than the 10 ms check, so a loaded machine's late timer still lands in it.
      'const poll = new BusyPoll({ windowMs: 300, activity: () => 0 });',
      // Nothing else is left after 10 ms: only the spinning keeps the loop alive until the window ends.
      "process.on('exit', () => console.log('alive for the window: ' + (performance.now() - started >= 300)));",
      'poll.start();',
      "setTimeout(() => console.log('spinning after 10 ms: ' + (poll.current === 'spinning')), 10);",
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
    expect(out.trim().split('\n')).toEqual(['spinning after 10 ms: true', 'alive for the window: true']);
    expect(code).toBe(0);
  }, 20_000);
});
