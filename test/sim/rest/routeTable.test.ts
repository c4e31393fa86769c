import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findRoute, SIM_ROUTES } from '../../../src/sim/rest/routeTable.js';

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

/** The table walked in order, every route tried: what the indexed lookup must answer. */
function scanned(method: string, path: string): ReturnType<typeof routed> {
  let known = false;
  for (const route of SIM_ROUTES) {
    const want = route.pattern.split('/');
    const got = path.split('/');
    if (want.length !== got.length) continue;
    const params: Record<string, string> = {};
    const fits = want.every((w, i) => {
      const g = got[i] ?? '';
      if (!w.startsWith(':')) return w === g;
      if (g === '') return false;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        params[w.slice(1)] = g;
      }
      return true;
    });
    if (!fits) continue;
    if (route.method === method) return { pattern: route.pattern, params };
    known = true;
  }
  return known ? 'wrong-method' : undefined;
}

describe('findRoute against a walk of the whole table', () => {
  it('answers as the walk does for every pattern, filled in, under each method, and for stray paths', () => {
    const segment = fc.oneof(fc.constantFrom('', 'x', '0xAbC', 'a%20b', '%E0%A4%A', 'place', 'open'), fc.string());
    const fromPattern = fc
      .tuple(fc.constantFrom(...SIM_ROUTES.map((r) => r.pattern)), fc.array(segment, { minLength: 4, maxLength: 4 }))
      .map(([pattern, fills]) =>
        pattern
          .split('/')
          .map((w, i) => (w.startsWith(':') ? (fills[i % 4] ?? '') : w))
          .join('/'),
      );
    const path = fc.oneof(
      fromPattern,
      fc.array(segment, { maxLength: 5 }).map((s) => `/${s.join('/')}`),
    );
    fc.assert(
      fc.property(fc.constantFrom('GET', 'POST', 'PUT'), path, (method, p) => {
        expect(routed(method, p)).toEqual(scanned(method, p));
      }),
      { numRuns: 3000 },
    );
    for (const route of SIM_ROUTES)
      for (const method of ['GET', 'POST'])
        expect(routed(method, route.pattern)).toEqual(scanned(method, route.pattern));
  });
});
