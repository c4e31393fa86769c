import { describe, expect, it } from 'vitest';
import { valueAtPath, wireValueText } from '../../src/sim/wireValueText.js';

describe('wireValueText', () => {
  it.each([
    ['abc', '"abc"'],
    ['<script>', '"<script>"'],
    [1.5, '1.5'],
    [null, 'null'],
    [true, 'true'],
    [undefined, 'nothing'],
    [[1, 2], 'an array of 2 items'],
    [{ a: 1 }, 'an object'],
    [12n, '12'],
  ] as const)('quotes %s as %s', (value, text) => {
    expect(wireValueText(value)).toBe(text);
  });

  it('cuts long strings and says how long they were', () => {
    expect(wireValueText('y'.repeat(1_000))).toBe(`"${'y'.repeat(60)}…" (1000 chars)`);
  });

  it('never shows a signature or a token, only its size', () => {
    expect(wireValueText('0xdeadbeef', 'account_signature')).toBe('a value of 10 chars (not shown)');
    expect(wireValueText(5, 'refresh_token')).toBe('a value of a number (not shown)');
  });

  it('describes nesting too deep for JSON.stringify without recursing', () => {
    const deep: unknown = JSON.parse(`${'['.repeat(50_000)}${']'.repeat(50_000)}`);
    expect(wireValueText(deep)).toBe('an array of 1 item');
  });
});

describe('valueAtPath', () => {
  it('follows own keys and array indexes; a missing step is undefined', () => {
    const root = { a: [{ b: 'x' }] };
    expect(valueAtPath(root, ['a', 0, 'b'])).toBe('x');
    expect(valueAtPath(root, ['a', 1, 'b'])).toBeUndefined();
    expect(valueAtPath(root, [])).toBe(root);
  });

  it('reads an own "__proto__" as data and never walks into the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    expect(valueAtPath(parsed, ['__proto__', 'x'])).toBe(1);
    expect(valueAtPath({}, ['__proto__'])).toBeUndefined();
    expect(valueAtPath({}, ['constructor'])).toBeUndefined();
  });
});
