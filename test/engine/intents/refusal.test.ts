import { describe, expect, it } from 'vitest';
import { PerpbotError } from '../../../src/core/perpbotError.js';
import { IntentRefusedError, refusal } from '../../../src/engine/intents/refusal.js';

describe('refusals', () => {
  it('show values as text, bigints included', () => {
    expect(refusal('size_steps_range', 4_294_967_296n, 'too big')).toEqual({
      rule: 'size_steps_range',
      value: '4294967296',
      reason: 'too big',
      hints: [],
    });
    expect(refusal('cancel_target', { orderId: 1n }, 'bad', 'hint').value).toBe('{"orderId":"1"}');
  });

  it('name what JSON cannot show by its kind', () => {
    const circular: { self?: unknown } = {};
    circular.self = circular;
    expect(refusal('intent', circular, 'bad').value).toBe('[object Object]');
    expect(refusal('intent', Symbol('kind'), 'bad').value).toBe('Symbol(kind)');
    expect(refusal('intent', function placeIt() {}, 'bad').value).toBe('[function placeIt]');
    expect(refusal('intent', null, 'bad').value).toBe('null');
  });

  it('can be thrown as a PerpbotError carrying the rule, value and hints', () => {
    const error = new IntentRefusedError('i-9', refusal('leverage', 300, 'leverage must be 1 to 50', 'lower it'));
    expect(error).toBeInstanceOf(PerpbotError);
    expect(error.code).toBe('INTENT_REFUSED');
    expect(error.message).toBe('intent i-9 refused by leverage: leverage must be 1 to 50 (value 300)');
    expect(error.details).toEqual({ intentId: 'i-9', rule: 'leverage', value: '300' });
    expect(error.hints).toEqual(['lower it']);
  });
});
