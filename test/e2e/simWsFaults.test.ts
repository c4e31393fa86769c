import { afterEach, describe, expect, it } from 'vitest';
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

/** Resolves true if the socket closes within `ms`, false if it is still open then. */
function closesWithin(c: FrameRecorder, ms: number): Promise<boolean> {
  return Promise.race([
    c.closed.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);
}

describe('wsDropEveryMs', () => {
  it('drops every connection again and again while set, and setFaults turns it off', async () => {
    const h = await harness({ blockMs: 0, faults: { wsDropEveryMs: 100 } });
    expect(h.sim.controls.state().faults).toMatchObject({ wsDropEveryMs: 100, wsStallEveryMs: 0 });
    for (let round = 0; round < 2; round++) {
      const c = await client(h);
      const started = Date.now();
      expect((await c.closed).code).toBe(1006); // ended without a close frame, as on a network drop
      expect(Date.now() - started).toBeLessThan(1_000);
    }
    h.sim.controls.setFaults({ wsDropEveryMs: 0 });
    const survivor = await client(h);
    expect(await closesWithin(survivor, 400)).toBe(false);
    expect(
      (await survivor.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle')))['status'],
    ).toBe('success');
  });
});

describe('wsStallEveryMs / wsStallForMs', () => {
  it('silences the streams for a while (blocks go missing) without closing, then delivery resumes', async () => {
    const h = await harness({ blockMs: 20 });
    const c = await client(h);
    await c.request({ method: 'subscribe', params: { channel: 'oracle' } }, isAck('oracle'));
    const from = c.frames.length;
    await c.next((f) => f['channel'] === 'oracle', from);
    h.sim.controls.setFaults({ wsStallEveryMs: 100, wsStallForMs: 400 });
    let last: number | undefined;
    // The first frame after a stall: about 20 blocks of 20 ms were mined and never sent.
    const resumed = await c.next(
      (f) => {
        if (f['channel'] !== 'oracle') return false;
        const block = f['block_number'] as number;
        const jumped = last !== undefined && block - last >= 5;
        last = block;
        return jumped;
      },
      from,
      3_000,
    );
    h.sim.controls.setFaults({ wsStallEveryMs: 0 });
    expect(resumed['type']).toBe('update');
    expect(await closesWithin(c, 50)).toBe(false);
    // With the fault off, consecutive blocks arrive again (after any stall still in progress ends).
    await new Promise((resolve) => setTimeout(resolve, 450));
    const after = c.frames.length;
    const a = await c.next((f) => f['channel'] === 'oracle', after);
    const b = await c.next((f) => f['channel'] === 'oracle' && f !== a, after);
    expect((b['block_number'] as number) - (a['block_number'] as number)).toBe(1);
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
