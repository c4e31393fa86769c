import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestTarget } from '../../../src/sim/rest/requestTarget.js';

/** Value or thrown message: a target the URL parser refuses ("//") must still be refused alike. */
function outcome(parse: () => unknown): unknown {
  try {
    return { value: parse() };
  } catch (error) {
    return { error: String(error) };
  }
}

/** What the server did before the plain-path shortcut: the WHATWG parser on every request. */
function viaUrl(rawUrl: string): { pathname: string; query: Record<string, string> } {
  const url = new URL(rawUrl, 'http://sim.invalid');
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (!(key in query)) query[key] = value;
  return { pathname: url.pathname, query };
}

describe('requestTarget', () => {
  it('equals new URL’s pathname and first query values for any request target', () => {
    const unit = fc.constantFrom(...'/abcxyzABC019-_.%2F?&=#\\ :@~é'.split(''), '//', '..', '%41', '%zz', '?a=1&a=2');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), (tail) => {
        const raw = `/${tail}`;
        expect(outcome(() => requestTarget(raw))).toStrictEqual(outcome(() => viaUrl(raw)));
      }),
      { numRuns: 3_000 },
    );
  });

  it.each([
    '/v1/orders/place',
    '/v1/nonce-state/0xAbC',
    '//evil/v1/orders/place',
    '/v1/orders/../orders/place',
    '/v1/markets?x=1&x=2',
    '/a//b',
    '/%7e',
    '//',
  ])('%s', (raw) => {
    expect(outcome(() => requestTarget(raw))).toStrictEqual(outcome(() => viaUrl(raw)));
  });
});
