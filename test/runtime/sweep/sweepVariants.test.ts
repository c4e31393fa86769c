import { describe, expect, it } from 'vitest';
import { sweepSchema } from '../../../src/runtime/config/sweepSchema.js';
import { sweepVariants } from '../../../src/runtime/sweep/sweepVariants.js';

const section = (raw: unknown) => sweepSchema.parse(raw);

describe('sweepVariants', () => {
  it('walks the whole grid with the first param varying slowest, and names the variants in that order', () => {
    const variants = sweepVariants(section({ params: { spread_bps: [2, 4], size: ['0.001', '0.002', '0.003'] } }));
    expect(variants.map((v) => v.id)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5', 'v6']);
    expect(variants.map((v) => [v.params['spread_bps'], v.params['size']])).toEqual([
      [2, '0.001'],
      [2, '0.002'],
      [2, '0.003'],
      [4, '0.001'],
      [4, '0.002'],
      [4, '0.003'],
    ]);
  });

  it('counts a range exactly, in numbers when written in numbers and in decimal strings when quoted', () => {
    const numbers = sweepVariants(section({ params: { skew: { min: 0.1, max: 0.3, step: 0.1 } } }));
    // In floats 0.1 + 0.1 + 0.1 is 0.30000000000000004, past max: the range would lose its last point.
    expect(numbers.map((v) => v.params['skew'])).toEqual([0.1, 0.2, 0.3]);
    const decimals = sweepVariants(section({ params: { size: { min: '0.001', max: '0.0025', step: '0.0005' } } }));
    expect(decimals.map((v) => v.params['size'])).toEqual(['0.001', '0.0015', '0.002', '0.0025']);
    expect(decimals[0]!.id).toBe('v1');
  });

  it('pads ids to the count, so they sort as the study orders them', () => {
    const variants = sweepVariants(section({ params: { n: { min: 1, max: 12, step: 1 } } }));
    expect(variants.map((v) => v.id).slice(0, 2)).toEqual(['v01', 'v02']);
    expect(variants.at(-1)!.id).toBe('v12');
  });

  it('draws the same random sample for the same seed: distinct points, within the ranges, another sample for another seed', () => {
    const raw = { params: { a: { min: 1, max: 100, step: 1 }, b: { min: '0.5', max: '2', step: '0.25' } } };
    const one = sweepVariants(section({ ...raw, sample: { count: 20, seed: 7 } }));
    const again = sweepVariants(section({ ...raw, sample: { count: 20, seed: 7 } }));
    const other = sweepVariants(section({ ...raw, sample: { count: 20, seed: 8 } }));
    expect(again).toEqual(one);
    expect(other).not.toEqual(one);
    expect(new Set(one.map((v) => JSON.stringify(v.params))).size).toBe(20);
    for (const v of one) {
      expect(Number.isInteger(v.params['a'])).toBe(true);
      expect(v.params['a']).toBeGreaterThanOrEqual(1);
      expect(v.params['a']).toBeLessThanOrEqual(100);
      expect(['0.5', '0.75', '1', '1.25', '1.5', '1.75', '2']).toContain(v.params['b']);
    }
  });

  it('a sample without step draws in steps of 0.0001; a sample as large as the grid is the grid', () => {
    const loose = sweepVariants(section({ params: { x: { min: 1, max: 2 } }, sample: { count: 5 } }));
    for (const v of loose)
      expect(Math.round((v.params['x'] as number) * 10_000)).toBe((v.params['x'] as number) * 10_000);
    const whole = sweepVariants(section({ params: { x: [1, 2, 3] }, sample: { count: 10 } }));
    expect(whole.map((v) => v.params['x'])).toEqual([1, 2, 3]);
  });

  it('refuses a grid range without step, and a grid past 10,000 variants, saying what to do', () => {
    expect(() => sweepVariants(section({ params: { x: { min: 1, max: 2 } } }))).toThrow(
      /sweep\.params\.x: a range in a grid needs a step/,
    );
    expect(() =>
      sweepVariants(section({ params: { a: { min: 1, max: 200, step: 1 }, b: { min: 1, max: 100, step: 1 } } })),
    ).toThrow(/the grid has 20000 variants, more than 10000/);
    expect(() => sweepVariants(section({ params: { x: { min: 3, max: 1, step: 1 } } }))).toThrow(/min at most max/);
  });

  it('the schema refuses a range mixing numbers and quoted decimals, and an unknown key', () => {
    expect(sweepSchema.safeParse({ params: { x: { min: 1, max: '2', step: 1 } } }).success).toBe(false);
    expect(sweepSchema.safeParse({ params: { x: [1] }, objetive: 'sharpe' }).success).toBe(false);
    expect(sweepSchema.safeParse({ params: {} }).success).toBe(false);
    expect(sweepSchema.safeParse({ params: { x: [1] }, constraints: ['drawdown < 3'] }).success).toBe(false);
    expect(sweepSchema.parse({ params: { x: [1] }, walk_forward: { train: '30m', test: '10m' } }).walk_forward).toEqual(
      {
        train: 1_800_000,
        test: 600_000,
      },
    );
  });
});
