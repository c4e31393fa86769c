import { PerpbotError } from '../../core/perpbotError.js';

/**
 * Why trading stopped for good (the metric label and the log's `cause`):
 * - `feed_lost`: a feed failed for a definite reason (a refused subscription, a handler that threw);
 * - `signer_not_active`: the signer's on-chain status is not Active (revoked);
 * - `signer_not_authorized`: the venue refused the signer, still after the system config was read again;
 * - `outage_exceeded`: degraded longer than `degraded.maxOutageMs`, with policy `stop`.
 */
export type StopCause = 'feed_lost' | 'signer_not_active' | 'signer_not_authorized' | 'outage_exceeded';

const HINTS: Readonly<Record<StopCause, string>> = {
  feed_lost: 'restart once the feed can be followed again; the log line before this one says why it failed',
  signer_not_active: 'register a signer again (`perpbot setup`), then restart',
  signer_not_authorized:
    'check that permit target is addresses.router and that the signer is registered for this account, then restart',
  outage_exceeded:
    'check the venue and the network; raise degraded.max_outage_ms or set degraded.on_max_outage: wait to ride out longer outages',
};

/** Trading stopped for a definite reason: the kill switch is tripped and the bot stops (or waits, per config). */
export class TradingStoppedError extends PerpbotError {
  readonly stopCause: StopCause;

  constructor(cause: StopCause, reason: string, error?: unknown) {
    super(`trading stopped (${cause}): ${reason}`, {
      code: 'TRADING_STOPPED',
      details: { cause },
      hints: [...(error instanceof PerpbotError ? error.hints : []), HINTS[cause]],
      ...(error === undefined ? {} : { cause: error }),
    });
    this.stopCause = cause;
  }
}
