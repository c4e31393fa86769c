import { describe, expect, it } from 'vitest';
import { InvalidValueError } from '../../src/core/invalidValueError.js';
import { isPerpbotError, PerpbotError } from '../../src/core/perpbotError.js';

class SampleError extends PerpbotError {}

describe('PerpbotError', () => {
  it('carries code, details, hints and the native cause, named after its subclass', () => {
    const cause = new Error('socket hang up');
    const error = new SampleError('place failed', {
      code: 'SAMPLE',
      details: { marketId: 1, size: '0.5' },
      hints: ['retry later'],
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('SampleError');
    expect(error.code).toBe('SAMPLE');
    expect(error.details).toEqual({ marketId: 1, size: '0.5' });
    expect(error.hints).toEqual(['retry later']);
    expect(error.cause).toBe(cause);
    expect(isPerpbotError(error)).toBe(true);
    expect(isPerpbotError(cause)).toBe(false);
  });

  it('has no cause property when none was given, and frozen details and hints that the caller cannot alter', () => {
    const details = { field: 'size' };
    const hints = ['check the step size'];
    const error = new PerpbotError('bad size', { code: 'X', details, hints });
    expect('cause' in error).toBe(false);
    details.field = 'price';
    hints.push('another');
    expect(error.details).toEqual({ field: 'size' });
    expect(error.hints).toEqual(['check the step size']);
    expect(Object.isFrozen(error.details)).toBe(true);
    expect(Object.isFrozen(error.hints)).toBe(true);
  });

  it('describes itself in one line with its hints, and serialises without the stack or the cause', () => {
    const bare = new PerpbotError('venue unreachable', { code: 'UNREACHABLE' });
    expect(bare.describe()).toBe('venue unreachable');
    const hinted = new PerpbotError('venue unreachable', {
      code: 'UNREACHABLE',
      hints: ['check PERPBOT_REST_URL', 'is the venue up?'],
      cause: new Error('secret-bearing cause'),
    });
    expect(hinted.describe()).toBe('venue unreachable (check PERPBOT_REST_URL; is the venue up?)');
    const json = JSON.parse(JSON.stringify(hinted)) as Record<string, unknown>;
    expect(json).toEqual({
      name: 'PerpbotError',
      code: 'UNREACHABLE',
      message: 'venue unreachable',
      details: {},
      hints: ['check PERPBOT_REST_URL', 'is the venue up?'],
    });
  });
});

describe('InvalidValueError', () => {
  it('names the field, shows the value (bigints as text, long strings cut) and the allowed range', () => {
    const error = new InvalidValueError('price_ticks', 16_777_216n, '1 to 16777215', 'use a coarser price');
    expect(error.message).toBe('price_ticks: invalid value 16777216; allowed: 1 to 16777215');
    expect(error).toMatchObject({
      code: 'INVALID_VALUE',
      field: 'price_ticks',
      value: '16777216',
      allowed: '1 to 16777215',
      hints: ['use a coarser price'],
    });
    const long = new InvalidValueError('address', 'x'.repeat(500), '0x and 40 hex digits');
    expect(long.value.length).toBeLessThan(150);
    expect(long.value.endsWith('…"')).toBe(true);
  });
});
