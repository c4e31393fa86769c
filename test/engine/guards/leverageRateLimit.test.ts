import { describe, expect, it } from 'vitest';
import { checkLeverageRate } from '../../../src/engine/guards/leverageRateLimit.js';
import { cancelAll, setLeverage } from '../../../src/engine/intents/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents/intents.js';
import { base, guardState, limits, NOW } from './guardFixture.js';

describe('one leverage update per second per account', () => {
  it.each<[string, Intent, number | undefined, boolean, unknown]>([
    ['the first update', setLeverage({ ...base, leverage: 3 }), undefined, false, { kind: 'allow' }],
    [
      'an update 400 ms after the last answer',
      setLeverage({ ...base, marketId: 2, leverage: 3 }),
      NOW - 400,
      false,
      { kind: 'wait', retryAfterMs: 600 },
    ],
    [
      'an update 1000 ms after the last answer',
      setLeverage({ ...base, leverage: 3 }),
      NOW - 1000,
      false,
      { kind: 'allow' },
    ],
    [
      'an update while the first is unanswered',
      setLeverage({ ...base, leverage: 3 }),
      undefined,
      true,
      { kind: 'wait', reason: expect.stringContaining('in flight') },
    ],
    [
      'an update while another is unanswered, long after the last answer',
      setLeverage({ ...base, marketId: 2, leverage: 3 }),
      NOW - 5000,
      true,
      { kind: 'wait' },
    ],
    ['other intents are not limited', cancelAll(base), NOW, true, { kind: 'allow' }],
  ])('%s', (_name, intent, last, inFlight, expected) => {
    expect(
      checkLeverageRate(guardState({ lastLeverageUpdateMs: last, leverageUpdateInFlight: inFlight }), intent, limits),
    ).toMatchObject(expected as object);
  });
});
