import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../src/core/boundedMap.js';

describe('BoundedMap', () => {
  it('holds up to its limit, then forgets everything when a new key arrives', () => {
    const map = new BoundedMap<string, number>(3);
    map.set('a', 1).set('b', 2).set('c', 3);
    expect([...map.keys()]).toEqual(['a', 'b', 'c']);
    map.set('d', 4);
    expect([...map.entries()]).toEqual([['d', 4]]);
  });

  it('replacing a key it holds never clears it, however full', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 10);
    expect(map.get('a')).toBe(10);
    expect(map.get('b')).toBe(2);
  });

  it('stays within its limit over many keys', () => {
    const map = new BoundedMap<number, number>(100);
    let largest = 0;
    for (let i = 0; i < 10_000; i++) {
      map.set(i, i);
      largest = Math.max(largest, map.size);
    }
    expect(largest).toBe(100);
  });

  it('refuses a limit below one entry, naming it', () => {
    expect(() => new BoundedMap(0)).toThrow(/at least 1 entry, got 0/);
    expect(() => new BoundedMap(Number.NaN)).toThrow(RangeError);
  });

  it('remembers a computed value: computed once per key while it is kept, again after the map forgot it', () => {
    const map = new BoundedMap<string, string>(2);
    const computed: string[] = [];
    const upper = (key: string) => {
      computed.push(key);
      return key.toUpperCase();
    };
    expect(map.remember('a', upper)).toBe('A');
    expect(map.remember('a', upper)).toBe('A');
    expect(map.remember('b', upper)).toBe('B');
    expect(map.remember('c', upper)).toBe('C'); // the third key: everything forgotten first
    expect(map.remember('a', upper)).toBe('A');
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
  });
});
