import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { InvalidValueError } from '../../../src/core/invalidValueError.js';
import type { SimWsConnection } from '../../../src/sim/ws/simWsConnection.js';
import { WsStallControl } from '../../../src/sim/ws/wsStallControl.js';
import { fakeConnection } from './fakeSocket.js';

function setup(count = 2) {
  const clock = new ManualClock();
  const lifetime = new AbortController();
  const connections: SimWsConnection[] = [];
  for (let id = 1; id <= count; id++) connections.push(fakeConnection(id, clock).connection);
  const stalls = new WsStallControl({ all: () => connections }, clock, lifetime.signal);
  return { clock, lifetime, connections, stalls };
}

const stalled = (connections: readonly SimWsConnection[]): boolean[] => connections.map((c) => c.isStalled);

describe('WsStallControl', () => {
  it('stall(ms) stalls every connection for ms, then resumes them all and counts them alive', async () => {
    const { clock, connections, stalls } = setup();
    for (const c of connections) c.alive = false; // a ping was outstanding when the stall began
    stalls.stall(1_000);
    expect(stalls.isStalled).toBe(true);
    expect(stalled(connections)).toEqual([true, true]);
    await clock.advance(999);
    expect(stalled(connections)).toEqual([true, true]);
    await clock.advance(1);
    expect(stalls.isStalled).toBe(false);
    expect(stalled(connections)).toEqual([false, false]);
    expect(connections.map((c) => c.alive)).toEqual([true, true]);
  });

  it('a shorter stall inside a longer one does not end it', async () => {
    const { clock, connections, stalls } = setup();
    stalls.stall(5_000);
    stalls.stall(1_000);
    await clock.advance(1_000);
    expect(stalled(connections)).toEqual([true, true]);
    await clock.advance(4_000);
    expect(stalled(connections)).toEqual([false, false]);
  });

  it('setStalled(true) outlasts timed stalls; setStalled(false) ends every stall at once', async () => {
    const { clock, connections, stalls } = setup();
    stalls.setStalled(true);
    stalls.stall(1_000);
    await clock.advance(2_000);
    expect(stalls.isStalled).toBe(true);
    expect(stalled(connections)).toEqual([true, true]);
    stalls.stall(10_000);
    stalls.setStalled(false);
    expect(stalls.isStalled).toBe(false);
    expect(stalled(connections)).toEqual([false, false]);
  });

  it('refuses a stall length that is not a positive integer, and changes nothing', () => {
    const { connections, stalls } = setup();
    for (const ms of [0, -5, 1.5, Number.NaN]) expect(() => stalls.stall(ms)).toThrow(InvalidValueError);
    expect(stalls.isStalled).toBe(false);
    expect(stalled(connections)).toEqual([false, false]);
  });

  it('after the server closes, a pending timed stall resumes nothing', async () => {
    const { clock, lifetime, connections, stalls } = setup(1);
    stalls.stall(1_000);
    lifetime.abort();
    await clock.advance(2_000);
    expect(stalled(connections)).toEqual([true]);
  });
});
