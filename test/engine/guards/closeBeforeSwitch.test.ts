import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { CloseBeforeSwitch } from '../../../src/engine/guards/closeBeforeSwitch.js';
import { setMarginMode } from '../../../src/engine/intents/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents/intents.js';
import type { IntentOutcome } from '../../../src/engine/intents/intentOutcome.js';

const SWITCH = setMarginMode({
  intentId: 's1',
  strategy: 'mm',
  marketId: 3,
  marginMode: 'isolated',
  policy: 'close_first',
});

/** A position of `size` until it is set otherwise; the close answers `outcome`. */
function setup(outcome: IntentOutcome['type']) {
  const clock = new ManualClock(0);
  const sent: Intent[] = [];
  let size: string | undefined = '0.5';
  let reconciles = 0;
  const closer = new CloseBeforeSwitch({
    execute: async (intent) => {
      sent.push(intent);
      return { type: outcome, intentId: intent.intentId } as IntentOutcome;
    },
    tracker: { position: () => (size === undefined ? undefined : ({ size } as never)) },
    reconcile: async () => void reconciles++,
    clock,
    signal: new AbortController().signal,
  });
  return {
    closer,
    clock,
    sent,
    reconciles: () => reconciles,
    flat: (to: string | undefined) => (size = to),
  };
}

describe('CloseBeforeSwitch', () => {
  it('closes the position of the switch, then waits until the venue reports the market flat', async () => {
    const { closer, clock, sent, flat } = setup('accepted');
    const done = closer.close(SWITCH);
    await clock.advance(300);
    flat('0');
    await clock.advance(100);
    await expect(done).resolves.toBe(true);
    expect(sent).toEqual([{ kind: 'closePosition', intentId: 's1-close', strategy: 'mm', marketId: 3 }]);
  });

  it('is done at once when the close leaves no position at all', async () => {
    const { closer, flat } = setup('accepted');
    flat(undefined);
    await expect(closer.close(SWITCH)).resolves.toBe(true);
  });

  it('gives up when the close is not accepted, without waiting', async () => {
    const { closer, clock } = setup('refused');
    await expect(closer.close(SWITCH)).resolves.toBe(false);
    expect(clock.now()).toBe(0);
  });

  it('reads the position from REST every second while it waits, and gives up after 10 s', async () => {
    const { closer, clock, reconciles } = setup('accepted');
    let finished: boolean | undefined;
    const done = closer.close(SWITCH).then((flat) => (finished = flat));
    await clock.advance(1_000);
    expect(reconciles()).toBe(1);
    await clock.advance(8_900);
    expect(finished).toBeUndefined();
    await clock.advance(100);
    await done;
    expect(finished).toBe(false);
    expect(reconciles()).toBe(10);
  });
});
