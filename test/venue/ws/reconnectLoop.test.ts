import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { runReconnectLoop } from '../../../src/venue/ws/reconnectLoop.js';

/**
 * The loop with scripted connections: `open` fails or succeeds per a plan, `live` ends each
 * connection with a reason and whether data flowed. Delays are read off the manual clock.
 */
function script(plan: ({ open: 'fail' } | { open: 'ok'; data: boolean })[]) {
  const clock = new ManualClock(0);
  const abort = new AbortController();
  const events: string[] = [];
  let step = 0;
  let endSession: (() => void) | undefined;
  const loop = runReconnectLoop<number>({
    open: async () => {
      const entry = plan[step++];
      if (entry === undefined) {
        abort.abort();
        throw new Error('plan exhausted');
      }
      events.push(`open@${clock.now()}:${entry.open}`);
      if (entry.open === 'fail') throw new Error('refused');
      return step;
    },
    live: (session) =>
      new Promise((resolve) => {
        const entry = plan[session - 1] as { data: boolean };
        endSession = () => resolve({ reason: `drop ${session}`, deliveredData: entry.data });
      }),
    backoff: (attempt) => 100 * 2 ** (attempt - 1),
    clock,
    signal: abort.signal,
    onConnectFailed: (_e, delayMs) => events.push(`retry in ${delayMs}`),
    onDropped: (reason, delayMs) => events.push(`${reason}, wait ${delayMs}`),
  });
  return { clock, abort, events, loop, drop: () => endSession?.() };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}

describe('runReconnectLoop', () => {
  it('backs off exponentially on failed opens and starts over after a connection that delivered data', async () => {
    const s = script([
      { open: 'fail' },
      { open: 'fail' },
      { open: 'ok', data: true },
      { open: 'ok', data: false },
      { open: 'ok', data: false },
    ]);
    await s.clock.advance(300);
    await settle();
    expect(s.events).toEqual(['open@0:fail', 'retry in 100', 'open@100:fail', 'retry in 200', 'open@300:ok']);
    s.drop(); // delivered data: the next wait is the first step again
    await settle();
    await s.clock.advance(100);
    await settle();
    s.drop(); // delivered nothing: counts as another failure
    await settle();
    await s.clock.advance(200);
    await settle();
    expect(s.events.slice(5)).toEqual(['drop 3, wait 100', 'open@400:ok', 'drop 4, wait 200', 'open@600:ok']);
    s.abort.abort();
    s.drop();
    await s.loop;
  });

  it('ends when aborted during a wait', async () => {
    const s = script([{ open: 'fail' }, { open: 'fail' }]);
    await settle();
    s.abort.abort();
    await expect(s.loop).resolves.toBeUndefined();
    expect(s.events).toEqual(['open@0:fail', 'retry in 100']);
  });
});
