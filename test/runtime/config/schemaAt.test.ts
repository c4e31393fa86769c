import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allowedKeys, describeNumber, schemaAt } from '../../../src/runtime/config/schemaAt.js';

describe('schemaAt', () => {
  const root = z.strictObject({
    list: z
      .array(z.strictObject({ port: z.preprocess((v) => v, z.number().int().min(0).max(65_535)).default(0) }))
      .min(1),
    nested: z.strictObject({ a: z.string().optional() }).prefault({}),
    map: z.record(z.string(), z.number().positive()),
  });

  it('walks objects, lists, records and wrappers', () => {
    expect(describeNumber(schemaAt(root, ['list', 0, 'port']))).toBe('an integer from 0 to 65535');
    expect(describeNumber(schemaAt(root, ['map', 'anything']))).toBe('a positive number');
    expect(allowedKeys(schemaAt(root, ['nested']))).toEqual(['a']);
    expect(schemaAt(root, ['nested', 'missing'])).toBeUndefined();
    expect(schemaAt(root, ['list', 'x'])).toBeUndefined();
  });

  it.each([
    [z.number(), 'a number'],
    [z.number().int(), 'an integer'],
    [z.number().nonnegative(), 'a non-negative number'],
    [z.number().int().min(1), 'a positive integer'],
    [z.number().gt(2).lt(9), 'a number > 2 and < 9'],
    [z.number().min(0.5).max(2), 'a number from 0.5 to 2'],
  ])('describes %s', (schema, text) => {
    expect(describeNumber(schema)).toBe(text);
  });

  it('describes only numbers', () => {
    expect(describeNumber(z.string())).toBeUndefined();
    expect(describeNumber(undefined)).toBeUndefined();
  });
});
