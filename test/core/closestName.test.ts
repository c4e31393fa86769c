import { describe, expect, it } from 'vitest';
import { closestName } from '../../src/core/closestName.js';

describe('closestName', () => {
  it.each([
    ['max_opne_orders', 'max_open_orders'],
    ['marketz', 'markets'],
    ['Rest_URL', 'rest_url'],
    ['timeout', undefined],
  ])('%s -> %s', (name, expected) => {
    expect(closestName(name, ['max_open_orders', 'markets', 'rest_url', 'open_orders', 'timeout_ms'])).toBe(expected);
  });
});
