import { describe, expect, it } from 'vitest';
import { checkSubscribeAck } from '../../../src/venue/ws/checkSubscribeAck.js';

const VENUE = [1, 2, 3, 4];

describe('checkSubscribeAck', () => {
  it.each([
    ['all requested, all applied (empty list)', undefined, [], undefined],
    ['all requested, all applied (absent)', undefined, undefined, undefined],
    ['all requested, all applied (null)', [], null, undefined],
    ['all requested, all applied (every market listed)', undefined, [4, 3, 2, 1], undefined],
    ['all requested, all applied (every market and one listed after our read)', undefined, [1, 2, 3, 4, 5], undefined],
    ['same ids in another order', [2, 1], [1, 2], undefined],
    ['a filter naming every market, echoed', [1, 2, 3, 4], [1, 2, 3, 4], undefined],
    ['filter requested, all applied (empty list)', [1], [], 'WS_FILTER_IGNORED'],
    ['filter requested, all applied (absent market_ids)', [1, 2], undefined, 'WS_FILTER_IGNORED'],
    ['filter requested, all applied (every market listed)', [1], [1, 2, 3, 4], 'WS_FILTER_IGNORED'],
    ['filter requested, other ids applied', [1], [2], 'WS_FILTER_MISMATCH'],
    ['filter requested, subset applied', [1, 2], [1], 'WS_FILTER_MISMATCH'],
    ['filter requested, more but not all applied', [1], [1, 2], 'WS_FILTER_MISMATCH'],
    ['all requested, filter applied', undefined, [3], 'WS_FILTER_MISMATCH'],
    ['all requested, all but one applied', undefined, [1, 2, 3], 'WS_FILTER_MISMATCH'],
  ] as const)('%s (venue markets known)', (_name, requested, applied, code) => {
    const error = checkSubscribeAck('orderbook', requested, applied, VENUE);
    if (code === undefined) expect(error).toBeUndefined();
    else expect(error).toMatchObject({ code, details: expect.objectContaining({ channel: 'orderbook' }) });
  });

  it('reports an ignored filter as requested ids against "all", whichever form the ack used', () => {
    for (const applied of [[], [1, 2, 3, 4]]) {
      expect(checkSubscribeAck('trades', [2], applied, VENUE)).toMatchObject({
        code: 'WS_FILTER_IGNORED',
        details: { channel: 'trades', requested: [2], applied: 'all' },
        hints: [expect.stringMatching(/market_ids parameter did not reach the server/)],
      });
    }
  });

  it('without the venue market list, cannot tell a full list from a filter: unfiltered accepts any, filtered sees a mismatch', () => {
    expect(checkSubscribeAck('oracle', undefined, [1, 2, 3, 4])).toBeUndefined();
    expect(checkSubscribeAck('oracle', undefined, [3])).toBeUndefined();
    expect(checkSubscribeAck('oracle', [1], [1, 2, 3, 4])).toMatchObject({
      code: 'WS_FILTER_MISMATCH',
      details: { requested: [1], applied: [1, 2, 3, 4] },
    });
    expect(checkSubscribeAck('oracle', [1], [])).toMatchObject({ code: 'WS_FILTER_IGNORED' });
    expect(checkSubscribeAck('oracle', [1], [1])).toBeUndefined();
  });

  it('an empty venue market list counts as unknown, never as "every market is listed"', () => {
    expect(checkSubscribeAck('oracle', [1], [1, 2], [])).toMatchObject({ code: 'WS_FILTER_MISMATCH' });
    expect(checkSubscribeAck('oracle', undefined, [3], [])).toBeUndefined();
  });
});
