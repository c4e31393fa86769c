import { describe, expect, it } from 'vitest';
import { InvalidValueError } from '../../src/core/invalidValueError.js';
import { checkEnum, StpMode, TimeInForce } from '../../src/protocol/enums.js';

describe('checkEnum', () => {
  it('returns each member number', () => {
    for (const n of Object.values(TimeInForce)) expect(checkEnum(n, TimeInForce, 'time_in_force')).toBe(n);
  });

  it.each([3, -1, '0', 0.5, undefined, null])('refuses %s, naming every member', (value) => {
    expect(() => checkEnum(value, StpMode, 'stp_mode')).toThrow(InvalidValueError);
    expect(() => checkEnum(value, StpMode, 'stp_mode')).toThrow(
      /0 \(ExpireMaker\), 1 \(ExpireTaker\), 2 \(ExpireBoth\)/,
    );
  });
});
