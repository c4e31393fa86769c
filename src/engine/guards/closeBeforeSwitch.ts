import type { Clock } from '../../core/clock.js';
import { compareDecimals } from '../../core/decimal.js';
import { closePosition } from '../intents/intentBuilders.js';
import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent } from '../intents/intents.js';
import type { OrderTracker } from '../tracking/orderTracker.js';

/** Polls of the position after the close, and how often the position is read from REST among them. */
const FLAT_POLLS = 100;
const FLAT_POLL_MS = 100;
const RECONCILE_EVERY = 10;

/**
 * A margin-mode switch needs a flat market (the admission gate asks first): closes the position,
 * then waits, bounded (10 s), until the venue reports the market flat. The positions channel
 * usually says so; every second the position is also read again from REST, in case a frame was
 * missed.
 */
export class CloseBeforeSwitch {
  constructor(
    private readonly o: {
      readonly execute: (intent: Intent) => Promise<IntentOutcome>;
      readonly tracker: Pick<OrderTracker, 'position'>;
      readonly reconcile: () => Promise<void>;
      readonly clock: Clock;
      readonly signal: AbortSignal;
    },
  ) {}

  /** True once the market is flat; false when the close was not accepted or the market stayed open. */
  async close(intent: Intent): Promise<boolean> {
    const outcome = await this.o.execute(
      closePosition({ intentId: `${intent.intentId}-close`, strategy: intent.strategy, marketId: intent.marketId }),
    );
    if (outcome.type !== 'accepted') return false;
    for (let i = 0; i < FLAT_POLLS; i++) {
      const position = this.o.tracker.position(intent.marketId);
      if (position === undefined || compareDecimals(position.size, '0') === 0) return true;
      await this.o.clock.sleep(FLAT_POLL_MS, this.o.signal);
      if (i % RECONCILE_EVERY === RECONCILE_EVERY - 1) await this.o.reconcile();
    }
    return false;
  }
}
