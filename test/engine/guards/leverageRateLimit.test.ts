import { describe, expect, it } from 'vitest';
import { checkLeverageRate } from '../../../src/engine/guards/leverageRateLimit.js';
import { cancelAll, setLeverage } from '../../../src/engine/intentBuilders.js';
import type { Intent } from '../../../src/engine/intents.js';
import { base, guardState, limits, NOW } from './guardFixture.js';

describe('one leverage update per second per account', () => {
  it.each<[string, Intent, number | undefined, unknown]>([
    ['the first update', setLeverage({ ...base, leverage: 3 }), undefined, { kind: 'allow' }],
    ['an update 400 ms after the last', setLeverage({ ...base, marketId: 2, leverage: 3 }), NOW - 400, { kind: 'wait', retryAfterMs: 600 }],
    ['an update 1000 ms after the last', setLeverage({ ...base, leverage: 3 }), NOW - 1000, { kind: 'allow' }],
    ['other intents are not limited', cancelAll(base), NOW, { kind: 'allow' }],
  ])('%s', (_name, intent, last, expected) => {
    expect(checkLeverageRate(guardState({ lastLeverageUpdateMs: last }), intent, limits)).toMatchObject(expected as object);
  });
});
