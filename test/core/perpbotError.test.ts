import { describe, expect, it } from 'vitest';
import { InvalidValueError } from '../../src/core/invalidValueError.js';
import { isPerpbotError, PerpbotError } from '../../src/core/perpbotError.js';
import { registerSecret } from '../../src/core/secretRegistry.js';

class SampleError extends PerpbotError {}

describe('PerpbotError', () => {
  it('carries code, details, hints and the native cause, named after its subclass', () => {
    const cause = new Error('socket hang up');
    const error = new SampleError('place failed', {
      code: 'INVALID_VALUE',
      details: { marketId: 1, size: '0.5' },
      hints: ['retry later'],
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('SampleError');
    expect(error.code).toBe('INVALID_VALUE');
    expect(error.details).toEqual({ marketId: 1, size: '0.5' });
    expect(error.hints).toEqual(['retry later']);
    expect(error.cause).toBe(cause);
    expect(isPerpbotError(error)).toBe(true);
    expect(isPerpbotError(cause)).toBe(false);
  });

  it('has no cause property when none was given, and frozen details and hints that the caller cannot alter', () => {
    const details = { field: 'size' };
    const hints = ['check the step size'];
    const error = new PerpbotError('bad size', { code: 'INVALID_VALUE', details, hints });
    expect('cause' in error).toBe(false);
    details.field = 'price';
    hints.push('another');
    expect(error.details).toEqual({ field: 'size' });
    expect(error.hints).toEqual(['check the step size']);
    expect(Object.isFrozen(error.details)).toBe(true);
    expect(Object.isFrozen(error.hints)).toBe(true);
  });

  it('describes itself in one line with its hints', () => {
    const bare = new PerpbotError('venue unreachable', { code: 'VENUE_CONNECTION_FAILED' });
    expect(bare.describe()).toBe('venue unreachable');
    const hinted = new PerpbotError('venue unreachable', {
      code: 'VENUE_CONNECTION_FAILED',
      hints: ['check PERPBOT_REST_URL', 'is the venue up?'],
    });
    expect(hinted.describe()).toBe('venue unreachable (check PERPBOT_REST_URL; is the venue up?)');
  });

  it('serialises with its cause chain, redacted, and without stacks', () => {
    const key = `0x${'4b'.repeat(32)}`;
    registerSecret(key);
    const socket = Object.assign(new Error(`socket hang up while sending ${key}`), { code: 'ECONNRESET' });
    const transport = new PerpbotError('POST /v1/orders/place could not reach the venue', {
      code: 'VENUE_CONNECTION_FAILED',
      details: { endpoint: 'POST /v1/orders/place', signature: 'never shown' },
      cause: socket,
    });
    const outer = new PerpbotError('venue unreachable', {
      code: 'OUTCOME_UNCONFIRMED',
      hints: ['check PERPBOT_REST_URL'],
      cause: transport,
    });
    const json = JSON.parse(JSON.stringify(outer)) as Record<string, unknown>;
    expect(json).toEqual({
      name: 'PerpbotError',
      code: 'OUTCOME_UNCONFIRMED',
      message: 'venue unreachable',
      details: {},
      hints: ['check PERPBOT_REST_URL'],
      cause: {
        name: 'PerpbotError',
        code: 'VENUE_CONNECTION_FAILED',
        message: 'POST /v1/orders/place could not reach the venue',
        details: { endpoint: 'POST /v1/orders/place', signature: '[redacted]' },
        hints: [],
        cause: { name: 'Error', code: 'ECONNRESET', message: 'socket hang up while sending [redacted]' },
      },
    });
    expect(JSON.stringify(outer)).not.toContain('4b4b4b4b');
    expect(JSON.stringify(outer)).not.toContain('    at ');
  });

  it('serialises a cause that is not an error as it is, and a cause chain that loops only so deep', () => {
    expect(new PerpbotError('aborted', { code: 'ABORTED', cause: 'shutdown' }).toJSON()['cause']).toBe('shutdown');
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    const text = JSON.stringify(new PerpbotError('loop', { code: 'ABORTED', cause: a }));
    expect(text).toContain('[cause chain too long]');
  });

  it('has no cause in its JSON when it has none', () => {
    expect('cause' in new PerpbotError('x', { code: 'ABORTED' }).toJSON()).toBe(false);
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
