import { PerpbotError } from '../../core/perpbotError.js';

/**
 * A venue feed the engine follows failed for good (a private channel whose authentication cannot
 * succeed, a refused subscription, a handler that threw): the engine's view of orders, positions
 * or prices is no longer kept up to date, so it stops trading. Carries the feed's name and the
 * failure as `cause`, with its hints first.
 */
export class FeedLostError extends PerpbotError {
  readonly channel: string;

  constructor(channel: string, cause: unknown) {
    super(`the ${channel} feed failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      code: 'FEED_LOST',
      cause,
      details: { channel },
      hints: [
        ...(cause instanceof PerpbotError ? cause.hints : []),
        'the engine tripped its kill switch (cancels all, refuses new orders); restart once the feed can be followed again',
      ],
    });
    this.channel = channel;
  }
}
