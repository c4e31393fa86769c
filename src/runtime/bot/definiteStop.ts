import type { Logger } from '../../core/logger.js';
import { FeedLostError } from '../../engine/connection/feedLostError.js';
import type { TradingStoppedError } from '../../engine/stopping/tradingStoppedError.js';

/**
 * A lost connection only degrades the engine (it resumes by itself). A definite condition (a feed
 * failed for good, the signer refused, an outage past degraded.max_outage_ms) stops the bot: the
 * engine has tripped its kill switch, the bot shuts down as on a signal (`signal` aborts) and
 * runBot then rejects with `stoppedBy`. A lost feed is reported as itself: it names the channel
 * and why it failed.
 */
export class DefiniteStop {
  private readonly controller = new AbortController();
  private error: TradingStoppedError | FeedLostError | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly alerts: { feedLost(channel: string, message: string): void },
  ) {}

  /** Aborts when the engine stopped trading for good. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the bot stopped, when it was not asked to. */
  get stoppedBy(): TradingStoppedError | FeedLostError | undefined {
    return this.error;
  }

  /** The engine's `onStopped` hook. */
  readonly onStopped = (error: TradingStoppedError): void => {
    const lost = error.cause instanceof FeedLostError ? error.cause : undefined;
    this.error = lost ?? error;
    if (lost !== undefined) {
      this.alerts.feedLost(lost.channel, lost.message);
      this.logger.error(
        { err: lost, channel: lost.channel, cause: error.stopCause },
        'a venue feed failed: stopping the bot',
      );
    } else {
      this.logger.error(
        { err: error, cause: error.stopCause },
        'trading stopped for a definite reason: stopping the bot',
      );
    }
    this.controller.abort(error);
  };
}
