import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { SimRestHarness } from './simRestHarness.js';
import { FrameRecorder, isAck, isAuthReply, settle } from './simWsHarness.js';
import { authV2Frame } from './support/viemAuth.js';

/**
 * The automatic WebSocket faults (off by default) and the per-account drop control, on
 * `startSim` as `npm run sim` runs it: faults given at start (the CLI flags' path) or through
 * `controls.setFaults`.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function harness(config: Parameters<typeof SimRestHarness.start>[0]): Promise<SimRestHarness> {
  const h = await SimRestHarness.start(config);
  cleanups.push(() => h.close());
  return h;
}

async function client(h: SimRestHarness): Promise<FrameRecorder> {
  const c = await FrameRecorder.connect(h.sim.wsUrl);
  cleanups.push(() => {
    expect(c.schemaFailures).toEqual([]);
    c.close();
  });
  return c;
}

describe('wsDropEveryMs', () => {
  it('drops every connection again and again while set, and setFaults turns it off', async () => {
    // The fault schedule runs on the WebSocket's timers: virtual here, so each period is one `advance`.
    const timers = new ManualClock();
    const h = await harness({ blockMs: 0, wsTimers: timers, faults: { wsDropEveryMs: 100 } });
    expect(h.sim.controls.state().faults).toMatchObject({ wsDropEveryMs: 100, wsStallEveryMs: 0 });
    for (let round = 0; round < 2; round++) {
      const c = await client(h);
      await timers.advance(150); // the longest gap drawn for a 100 ms period
      expect((await c.closed).code).toBe(1006); // ended without a close frame, as on a network drop
    }
    h.sim.controls.setFaults({ wsDropEveryMs: 0 });
    const survivor = await client(h);
    await timers.advance(10_000); // a hundred periods: a drop would have ended the socket by now
    expect(
      (await survivor.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle')))['status'],
    ).toBe('success');
    expect(timers.pendingSleeps).toBe(1); // the ping loop alone: the drop schedule has ended
  });
});

describe('wsStallEveryMs / wsStallForMs', () => {
  it('silences the streams for a while (blocks go missing) without closing, then delivery resumes', async () => {
    const timers = new ManualClock();
    const h = await harness({ blockMs: 0, wsTimers: timers });
    const c = await client(h);
    await c.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle'));
    const oracleAfter = async (from: number): Promise<number> =>
      (await c.next((f) => f['channel'] === 'oracle' && f['type'] === 'update', from))['block_number'] as number;
    const mined = (): number => h.sim.controls.advanceBlocks(1);
    let from = c.frames.length;
    let head = mined();
    expect(await oracleAfter(from)).toBe(head);

    h.sim.controls.setFaults({ wsStallEveryMs: 100, wsStallForMs: 400 });
    await timers.advance(150); // the stall has begun: the next blocks are mined and never sent
    h.sim.controls.setFaults({ wsStallEveryMs: 0 }); // no further stall; the one running keeps its 400 ms
    from = c.frames.length;
    for (let i = 0; i < 5; i++) mined();
    await timers.advance(400);
    head = mined();
    expect(await oracleAfter(from)).toBe(head); // the first frame after the stall: five blocks lost
    from = c.frames.length;
    head = mined();
    expect(await oracleAfter(from)).toBe(head); // consecutive again, on the same connection
  });
});

describe('dropAccountWebSockets', () => {
  it('ends only the connections authenticated as that account', async () => {
    const h = await harness({});
    const alice = await h.trader();
    const authed = await client(h);
    const anonymous = await client(h);
    expect((await authed.request(await authV2Frame(h, alice), isAuthReply))['status']).toBe('success');
    await settle(anonymous);
    expect(h.sim.controls.dropAccountWebSockets(alice.account.address)).toBe(1);
    expect((await authed.closed).code).toBe(1006);
    await settle(anonymous);
    expect(h.sim.controls.dropAccountWebSockets(alice.account.address)).toBe(0);
  });
});
