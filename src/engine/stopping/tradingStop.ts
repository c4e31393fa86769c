import type { TradingConditions } from '../admission/tradingConditions.js';
import { TradingStoppedError, type StopCause } from './tradingStoppedError.js';
import type { Logger } from '../../core/logger.js';

/**
 * Stopping trading for a definite reason (a feed lost for good, a refused signer, an outage too
 * long): the kill switch trips and the trading conditions stop, every time it is asked; the
 * runtime hears it once, with the first cause, and each cause is counted for the metrics.
 */
export class TradingStop {
  private readonly counts = new Map<StopCause, number>();
  private reportedOnce = false;
  private onStopped: ((error: TradingStoppedError) => void) | undefined;

  constructor(
    private readonly o: {
      readonly trip: (reason: string) => void;
      readonly conditions: Pick<TradingConditions, 'stop'>;
      readonly log: Logger;
    },
  ) {}

  /** Who hears the stop (the runtime, through `Engine.attach`'s hooks). */
  listen(onStopped: ((error: TradingStoppedError) => void) | undefined): void {
    this.onStopped = onStopped;
  }

  /** Whether a stop was reported already: later causes only trip. */
  get reported(): boolean {
    return this.reportedOnce;
  }

  /** How many times trading stopped for each cause (0 or 1 per process). */
  get stopCounts(): ReadonlyMap<StopCause, number> {
    return this.counts;
  }

  stop(cause: StopCause, reason: string, causeError?: unknown): void {
    this.o.trip(`trading stopped (${cause}): ${reason}`);
    this.o.conditions.stop(reason);
    if (this.reportedOnce) return;
    this.reportedOnce = true;
    this.counts.set(cause, (this.counts.get(cause) ?? 0) + 1);
    const error = new TradingStoppedError(cause, reason, causeError);
    this.o.log.error({ cause, reason }, `trading stopped: ${cause}`);
    this.onStopped?.(error);
  }
}
