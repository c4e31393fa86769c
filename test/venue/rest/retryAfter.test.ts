import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/venue/rest/retryAfter.js';

const NOW = Date.parse('2026-10-21T07:28:00Z');

describe('parseRetryAfter', () => {
  it.each<[string | null | undefined, number | undefined]>([
    ['2', 2_000],
    [' 0 ', 0],
    ['120', 120_000],
    ['Wed, 21 Oct 2026 07:28:05 GMT', 5_000],
    // A date already past means "now".
    ['Wed, 21 Oct 2026 07:27:00 GMT', 0],
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
    [undefined, undefined],
  ])('%j -> %j ms', (header, ms) => {
    expect(parseRetryAfter(header, NOW)).toBe(ms);
  });
});
