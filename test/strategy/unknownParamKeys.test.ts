import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeUnknownKey, unknownParamKeys } from '../../src/strategy/unknownParamKeys.js';
import { parseStrategyParams } from '../../src/strategy/strategyParams.js';
import { StrategyParamsError } from '../../src/strategy/strategyParamsError.js';

const params = z.object({
  spread_bps: z.number().default(10),
  size: z.string(),
  levels: z.array(z.object({ offset_bps: z.number() })).default([]),
  limits: z.object({ max_skew: z.string().optional() }).optional(),
  extras: z.looseObject({ known: z.string().optional() }).optional(),
});

describe('unknownParamKeys', () => {
  it('finds a top-level typo that a plain z.object would drop, with the nearest key', () => {
    const found = unknownParamKeys(params, { spred_bps: 5, size: '0.001' });
    expect(found).toEqual([{ path: ['spred_bps'], suggestion: 'spread_bps', allowed: Object.keys(params.shape) }]);
    expect(describeUnknownKey(found[0]!)).toBe('unknown key "spred_bps" (did you mean "spread_bps"?)');
  });

  it('looks inside nested objects and arrays of objects, through defaults and optionals', () => {
    const found = unknownParamKeys(params, {
      size: '1',
      levels: [{ offset_bps: 1 }, { ofset_bps: 2 }],
      limits: { max_skw: '1' },
    });
    expect(found.map((f) => [f.path, f.suggestion])).toEqual([
      [['levels', 1, 'ofset_bps'], 'offset_bps'],
      [['limits', 'max_skw'], 'max_skew'],
    ]);
  });

  it('lists the allowed keys when nothing is close, and leaves loose objects alone', () => {
    const found = unknownParamKeys(params, { size: '1', colour: 'red', extras: { anything: 1 } });
    expect(found).toHaveLength(1);
    expect(describeUnknownKey(found[0]!)).toBe(
      'unknown key "colour" (allowed here: spread_bps, size, levels, limits, extras)',
    );
  });

  it('finds nothing in params that match the schema', () => {
    expect(unknownParamKeys(params, { size: '1', spread_bps: 3, levels: [{ offset_bps: 1 }] })).toEqual([]);
  });
});

describe('parseStrategyParams', () => {
  const source = (p: unknown) => ({
    name: 'mm',
    definition: { params },
    params: p,
    configPath: 'strategies[0].params',
  });

  it('refuses an unknown key with the config path, the key and a suggestion', () => {
    expect(() => parseStrategyParams(source({ spred_bps: 5, size: '1' }))).toThrow(StrategyParamsError);
    expect(() => parseStrategyParams(source({ spred_bps: 5, size: '1' }))).toThrow(
      'config error at strategies[0].params.spred_bps: unknown key "spred_bps" (did you mean "spread_bps"?) (strategy mm)',
    );
  });

  it('parses valid params with their defaults', () => {
    expect(parseStrategyParams(source({ size: '1' }))).toEqual({ spread_bps: 10, size: '1', levels: [] });
  });
});
