import { describe, expect, it } from 'vitest';
import { findRoute } from '../../../src/sim/rest/routeTable.js';

function routed(
  method: string,
  path: string,
): { pattern: string; params: Record<string, string> } | string | undefined {
  const found = findRoute(method, path);
  return typeof found === 'object' ? { pattern: found.route.pattern, params: found.params } : found;
}

describe('findRoute', () => {
  it('matches a static path by method and path', () => {
    expect(routed('POST', '/v1/orders/place')).toEqual({ pattern: '/v1/orders/place', params: {} });
    expect(routed('GET', '/v1/orders/open')).toEqual({ pattern: '/v1/orders/open', params: {} });
  });

  it('names the :segments of a pattern, percent-decoded; a malformed escape is kept as sent', () => {
    expect(routed('GET', '/v1/nonce-state/0xAbC')).toEqual({
      pattern: '/v1/nonce-state/:account',
      params: { account: '0xAbC' },
    });
    expect(routed('GET', '/v1/orders/by-id/a%20b')).toEqual({
      pattern: '/v1/orders/by-id/:order_id',
      params: { order_id: 'a b' },
    });
    expect(routed('GET', '/v1/orders/by-id/%E0%A4%A')).toEqual({
      pattern: '/v1/orders/by-id/:order_id',
      params: { order_id: '%E0%A4%A' },
    });
  });

  it('an empty or extra segment is no match', () => {
    expect(routed('GET', '/v1/nonce-state/')).toBeUndefined();
    expect(routed('GET', '/v1/nonce-state/0x1/more')).toBeUndefined();
  });

  it('a known path under another method is wrong-method (405); an unknown path is undefined (404)', () => {
    expect(routed('GET', '/v1/orders/place')).toBe('wrong-method');
    expect(routed('POST', '/v1/nonce-state/0x1')).toBe('wrong-method');
    expect(routed('GET', '/v1/nope')).toBeUndefined();
    expect(routed('GET', '/v1/orders/place/')).toBeUndefined();
  });
});
