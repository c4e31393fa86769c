import { describe, expect, it } from 'vitest';
import { FeedLostError } from '../../../src/engine/connection/feedLostError.js';
import { TradingStoppedError } from '../../../src/engine/stopping/tradingStoppedError.js';
import { DefiniteStop } from '../../../src/runtime/bot/definiteStop.js';

function setup() {
  const errors: { obj: Record<string, unknown>; msg: string | undefined }[] = [];
  const feedsLost: [string, string][] = [];
  const logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: (obj: object, msg?: string) => void errors.push({ obj: obj as Record<string, unknown>, msg }),
  };
  const stop = new DefiniteStop(logger, { feedLost: (channel, message) => void feedsLost.push([channel, message]) });
  return { stop, errors, feedsLost };
}

describe('DefiniteStop', () => {
  it('a lost feed stops the bot as itself: named channel, alerted, logged', () => {
    const { stop, errors, feedsLost } = setup();
    const lost = new FeedLostError('orders', new Error('subscription refused'));
    const stopped = new TradingStoppedError('feed_lost', 'the orders feed failed', lost);
    expect(stop.signal.aborted).toBe(false);

    stop.onStopped(stopped);

    expect(stop.signal.aborted).toBe(true);
    expect(stop.signal.reason).toBe(stopped);
    expect(stop.stoppedBy).toBe(lost);
    expect(feedsLost).toEqual([['orders', lost.message]]);
    expect(errors).toEqual([
      { obj: { err: lost, channel: 'orders', cause: 'feed_lost' }, msg: 'a venue feed failed: stopping the bot' },
    ]);
  });

  it('any other definite reason stops the bot with the trading-stopped error, no feed alert', () => {
    const { stop, errors, feedsLost } = setup();
    const stopped = new TradingStoppedError('signer_not_active', 'the signer was revoked');

    stop.onStopped(stopped);

    expect(stop.signal.aborted).toBe(true);
    expect(stop.stoppedBy).toBe(stopped);
    expect(feedsLost).toEqual([]);
    expect(errors).toEqual([
      {
        obj: { err: stopped, cause: 'signer_not_active' },
        msg: 'trading stopped for a definite reason: stopping the bot',
      },
    ]);
  });

  it('nothing stopped it while it runs', () => {
    const { stop } = setup();
    expect(stop.stoppedBy).toBeUndefined();
    expect(stop.signal.aborted).toBe(false);
  });
});
