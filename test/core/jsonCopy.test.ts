import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { copyAsJson } from '../../src/core/jsonCopy.js';
import { hostileString } from '../sim/hostileValues.js';

/** Keys JSON treats specially or V8 orders first (integer-like), and any string. */
const key = fc.oneof(fc.string(), hostileString, fc.constantFrom('0', '10', '2', 'toJSON', 'request_id', 'a', 'b'));

/** Values JSON writes as they are, and the ones it changes, drops or cannot write. */
const leaf = fc.oneof(
  fc.jsonValue(),
  hostileString,
  fc.double(),
  fc.constantFrom(-0, Number.NaN, Infinity, -Infinity, undefined, null, true, 1e21, 5e-324),
  fc.constant(() => 1),
  fc.constant(Symbol('s')),
);

const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(key, tie('value'), { maxKeys: 6 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3, noNullPrototype: false }),
  ),
})).value;

/** What the text's way gives: the value its JSON text parses to, or that there is no text. */
function viaText(v: unknown): { readonly value: unknown } | undefined {
  const text = JSON.stringify(v) as string | undefined;
  return text === undefined ? undefined : { value: JSON.parse(text) };
}

/** No own `__proto__` key anywhere (the walk leaves those to the text). */
function withoutProtoKey(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (Array.isArray(v)) return v.every(withoutProtoKey);
  return !Object.hasOwn(v, '__proto__') && Object.values(v).every(withoutProtoKey);
}

describe('copyAsJson', () => {
  it('gives what JSON.parse of the JSON text gives, key order included, with a bound of its UTF-8 bytes', () => {
    fc.assert(
      fc.property(value, (v) => {
        const copy = copyAsJson(v);
        const text = viaText(v);
        if (text === undefined) {
          expect(copy).toBeUndefined();
          return;
        }
        // The walk may leave a value to the text (a toJSON, a class); when it copies, the copy is the text's.
        if (copy === undefined) return;
        // Deep equality by prototypes and own keys (vitest's would read an own `constructor` key as the class).
        expect(isDeepStrictEqual(copy.value, text.value)).toBe(true);
        expect(JSON.stringify(copy.value)).toBe(JSON.stringify(v));
        expect(copy.maxBytes).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(v)));
      }),
      { numRuns: 3000 },
    );
  });

  it('copies every plain value it is given, and makes new objects and arrays', () => {
    fc.assert(
      fc.property(fc.jsonValue().filter(withoutProtoKey), (v) => {
        const copy = copyAsJson(v);
        expect(copy).toBeDefined();
        expect(isDeepStrictEqual(copy?.value, JSON.parse(JSON.stringify(v)))).toBe(true);
        if (typeof v === 'object' && v !== null) expect(copy?.value).not.toBe(v);
      }),
    );
    const inner = { b: [1, { c: 'x' }] };
    const copied = copyAsJson({ a: inner })?.value as { a: typeof inner };
    expect(copied.a).not.toBe(inner);
    expect(copied.a.b).not.toBe(inner.b);
    expect(copied.a.b[1]).not.toBe(inner.b[1]);
  });

  it('writes what JSON changes as JSON does: -0 as 0, NaN and the infinities as null, dropped keys, null in arrays', () => {
    expect(
      copyAsJson({ z: -0, n: Number.NaN, i: Infinity, u: undefined, f: () => 1, a: [undefined, () => 1] })?.value,
    ).toStrictEqual({ z: 0, n: null, i: null, a: [null, null] });
    expect(Object.is((copyAsJson(-0)?.value as number) + 0, 0)).toBe(true);
    expect(copyAsJson({ [Symbol('k')]: 1, k: 2 })?.value).toStrictEqual({ k: 2 });
    expect(copyAsJson({ 10: 'a', b: 'b', 2: 'c' })?.value).toStrictEqual(
      JSON.parse(JSON.stringify({ 10: 'a', b: 'b', 2: 'c' })),
    );
    expect(Object.keys(copyAsJson({ b: 1, 10: 2, a: 3, 2: 4 })?.value as object)).toEqual(['2', '10', 'b', 'a']);
  });

  it('leaves to the text what only its code writes, what it cannot write and an own __proto__ key', () => {
    expect(copyAsJson(undefined)).toBeUndefined();
    expect(copyAsJson(() => 1)).toBeUndefined();
    expect(copyAsJson({ a: 1n })).toBeUndefined();
    expect(copyAsJson({ when: new Date(0) })).toBeUndefined();
    expect(copyAsJson({ data: 1, toJSON: () => 'x' })).toBeUndefined();
    expect(copyAsJson([new Number(1)])).toBeUndefined();
    expect(copyAsJson(JSON.parse('{"__proto__":{"polluted":"yes"}}'))).toBeUndefined();
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(copyAsJson(cycle)).toBeUndefined();
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(copyAsJson(deep)).toBeUndefined();
    expect(copyAsJson(Object.assign(Object.create(null) as object, { a: 1 }))?.value).toStrictEqual({ a: 1 });
  });
});
