import { readFileSync } from 'node:fs';

/**
 * The real venue's JSON as public clients captured it or the official page prints it, copied
 * verbatim from ../shared/spec/wire-samples/ into test/vectors/wire-samples/ (see its README).
 */
export function wireSample(name: string): Record<string, unknown> {
  const url = new URL(`../../vectors/wire-samples/${name}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
}

/**
 * The official page's placeholders ("0x...", "base64...", "a1b2c3...", "...") replaced by valid
 * values of the same JSON type: an address, a 65-byte hex or 64-byte base64 signature, 64 hex
 * without 0x, a message.
 */
export function withoutPlaceholders(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutPlaceholders(item));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutPlaceholders(v, k)]));
  if (value === '0x...')
    return /signature/i.test(key) ? `0x${'ab'.repeat(64)}1b` : '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  if (value === 'base64...') return Buffer.alloc(64, 7).toString('base64');
  if (value === 'a1b2c3...') return 'a1b2c3'.padEnd(64, '0');
  if (value === '...') return 'WebSocket Authentication';
  return value;
}
