import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { runPingLoop } from '../../../src/sim/ws/pingLoop.js';
import { fakeConnection } from './fakeSocket.js';

function setup() {
  const clock = new ManualClock();
  const quiet = fakeConnection(1, clock);
  const answering = fakeConnection(2, clock);
  const stalls = { isStalled: false };
  const lifetime = new AbortController();
  const loop = runPingLoop(
    { connections: { all: () => [quiet.connection, answering.connection] }, timers: clock, intervalMs: 15_000, stalls },
    lifetime.signal,
  );
  return { clock, quiet, answering, stalls, lifetime, loop };
}

describe('runPingLoop', () => {
  it('pings every interval and drops a connection that did not answer the previous ping', async () => {
    const { clock, quiet, answering } = setup();
    await clock.advance(14_999);
    expect(quiet.log.calls).toEqual([]);
    await clock.advance(1);
    expect(quiet.log.calls).toEqual(['ping']);
    expect(answering.log.calls).toEqual(['ping']);
    answering.connection.alive = true; // its pong arrived
    await clock.advance(15_000);
    expect(quiet.log.calls).toEqual(['ping', 'terminate']);
    expect(quiet.connection.isOpen).toBe(false);
    expect(answering.log.calls).toEqual(['ping', 'ping']);
    expect(answering.connection.isOpen).toBe(true);
  });

  it('sends no pings and drops nobody while the server is stalled', async () => {
    const { clock, quiet, stalls } = setup();
    await clock.advance(15_000);
    stalls.isStalled = true;
    await clock.advance(45_000);
    expect(quiet.log.calls).toEqual(['ping']);
    expect(quiet.connection.isOpen).toBe(true);
  });

  it('ends when the server closes', async () => {
    const { clock, quiet, lifetime, loop } = setup();
    lifetime.abort();
    await expect(loop).resolves.toBeUndefined();
    await clock.advance(60_000);
    expect(quiet.log.calls).toEqual([]);
    expect(clock.pendingSleeps).toBe(0);
  });
});
