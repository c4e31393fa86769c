/**
 * An HTTP `Retry-After` header (RFC 9110 10.2.3) as milliseconds to wait from `nowMs`: either
 * whole seconds ("2") or an HTTP date ("Wed, 21 Oct 2026 07:28:00 GMT"). A date in the past means
 * 0. Anything else (absent, negative, garbage) is undefined: the caller falls back on its backoff.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only a date names a weekday or a month; a bare number with a sign or a fraction is not valid.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
