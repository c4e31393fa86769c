/** Where a request goes: the URL's pathname and its query, a repeated name keeping its first value. */
export interface RequestTarget {
  readonly pathname: string;
  readonly query: Record<string, string>;
}

/**
 * A plain path of letters, digits, `-`, `_` and slashes, not starting with `//`: the WHATWG URL
 * parser returns it unchanged as the pathname, with an empty query.
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9_\-/]*$/;

/**
 * Parses a request's target as `new URL(target, base)` does. `new URL` costs a microsecond or two
 * and every signed request pays it, so a plain path (what every client sends to the order
 * endpoints) is taken as it is; anything else (a query, dots, escapes, a leading `//`) goes
 * through the URL parser.
 */
export function requestTarget(rawUrl: string): RequestTarget {
  if (PLAIN_PATH.test(rawUrl)) return { pathname: rawUrl, query: {} };
  const url = new URL(rawUrl, 'http://sim.invalid');
  return { pathname: url.pathname, query: firstValues(url.searchParams) };
}

function firstValues(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of search) if (!(key in out)) out[key] = value;
  return out;
}
