import { describe, expect, it } from 'vitest';
import { checkSubscribeAck } from '../../../src/venue/ws/checkSubscribeAck.js';

describe('checkSubscribeAck', () => {
  it.each([
    ['all requested, all applied (empty list)', undefined, [], undefined],
    ['all requested, all applied (absent)', undefined, undefined, undefined],
    ['all requested, all applied (null)', [], null, undefined],
    ['same ids in another order', [2, 1], [1, 2], undefined],
    ['filter requested, all applied', [1], [], 'WS_FILTER_IGNORED'],
    ['filter requested, absent market_ids', [1, 2], undefined, 'WS_FILTER_IGNORED'],
    ['filter requested, other ids applied', [1], [2], 'WS_FILTER_MISMATCH'],
    ['filter requested, subset applied', [1, 2], [1], 'WS_FILTER_MISMATCH'],
    ['all requested, filter applied', undefined, [3], 'WS_FILTER_MISMATCH'],
  ] as const)('%s', (_name, requested, applied, code) => {
    const error = checkSubscribeAck('orderbook', requested, applied);
    if (code === undefined) expect(error).toBeUndefined();
    else expect(error).toMatchObject({ code, details: expect.objectContaining({ channel: 'orderbook' }) });
  });
});
