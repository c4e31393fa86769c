import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../../src/runtime/config/configError.js';
import { parseStrategyParams } from '../../../src/runtime/config/parseStrategyParams.js';

const schema = z.strictObject({
  spread_bps: z.number().positive(),
  levels: z.number().int().min(1).max(5).default(1),
  order_size: z.string(),
});

describe('parseStrategyParams', () => {
  it('returns the typed, frozen params', () => {
    const params = parseStrategyParams(schema, { spread_bps: 20, order_size: '0.001' }, 0);
    expect(params).toEqual({ spread_bps: 20, levels: 1, order_size: '0.001' });
    expect(Object.isFrozen(params)).toBe(true);
  });

  it('reports each problem under strategies[i].params with the value', () => {
    let caught: unknown;
    try {
      parseStrategyParams(schema, { spread_bps: 'abc', levels: 9, order_size: '1', sprd: 1 }, 2);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.path).toBe('strategies[2].params.spread_bps');
    expect(error.message.split('\n')).toEqual([
      'config error at strategies[2].params.spread_bps: expected a positive number, got "abc"',
      'config error at strategies[2].params.levels: expected an integer from 1 to 5, got 9',
      'config error at strategies[2].params.sprd: unknown key "sprd" (allowed here: spread_bps, levels, order_size)',
    ]);
  });

  it('reports missing params as missing', () => {
    expect(() => parseStrategyParams(schema, { spread_bps: 1 }, 0)).toThrow(
      'config error at strategies[0].params.order_size: required value is missing (expected a string)',
    );
  });

  it('refuses a key a plain (non-strict) schema would drop, with the nearest known key', () => {
    const plain = z.object({ spread_bps: z.number().default(10), nested: z.object({ size: z.string() }).optional() });
    expect(() => parseStrategyParams(plain, { spred_bps: 5 }, 1)).toThrow(
      'config error at strategies[1].params.spred_bps: unknown key "spred_bps" (did you mean "spread_bps"?)',
    );
    expect(() => parseStrategyParams(plain, { nested: { sise: '1' } }, 0)).toThrow(
      'config error at strategies[0].params.nested.sise: unknown key "sise" (did you mean "size"?)',
    );
  });
});
