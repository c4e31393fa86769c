import { describe, expect, it } from 'vitest';
import { FrameTextCursor, NOT_READ } from '../../../src/venue/ws/frameTextCursor.js';

/**
 * Each reader takes only a spelling JSON.parse reads the same way, and on anything else answers
 * "not read" without moving: the scanner then leaves the frame to the JSON.parse way.
 */

function at(text: string): FrameTextCursor {
  return new FrameTextCursor(text);
}

describe('FrameTextCursor', () => {
  it('uint: JSON integers without sign, fraction or leading zero, at most 15 digits', () => {
    const read = (text: string): [number, number] => {
      const cursor = at(text);
      return [cursor.uint(), cursor.pos];
    };
    expect(read('0,')).toEqual([0, 1]);
    expect(read('42}')).toEqual([42, 2]);
    expect(read('999999999999999,')).toEqual([999_999_999_999_999, 15]);
    // 16 digits may pass 2^53: not read here.
    expect(read('1000000000000000,')).toEqual([NOT_READ, 0]);
    expect(read('-1,')).toEqual([NOT_READ, 0]);
    expect(read('"1"')).toEqual([NOT_READ, 0]);
    expect(read('')).toEqual([NOT_READ, 0]);
    // "01" is not JSON: the 0 is read, and the caller's next check (a comma or a brace) meets the 1.
    expect(read('01')).toEqual([0, 1]);
    expect(read('1.5')).toEqual([1, 1]);
  });

  it('digitString: a quoted run of digits within the bounds, the quotes left out', () => {
    expect(at('"123"').digitString(1, 5)).toBe('123');
    expect(at('"007"').digitString(1, 5)).toBe('007');
    expect(at('"123456"').digitString(1, 5)).toBeUndefined();
    expect(at('""').digitString(1, 5)).toBeUndefined();
    expect(at('"12a"').digitString(1, 5)).toBeUndefined();
    expect(at('"12').digitString(1, 5)).toBeUndefined();
    expect(at('12').digitString(1, 5)).toBeUndefined();
    const cursor = at('"12"x');
    cursor.digitString(1, 5);
    expect(cursor.pos).toBe(4);
  });

  it('bookDecimal: up to 18 integer and 18 fraction digits, as BOOK_DECIMAL_PATTERN', () => {
    const max = `${'9'.repeat(18)}.${'9'.repeat(18)}`;
    expect(at(`"${max}"`).bookDecimal()).toBe(max);
    expect(at('"063220.50"').bookDecimal()).toBe('063220.50');
    for (const bad of ['1'.repeat(19), `1.${'0'.repeat(19)}`, '1.', '.5', '-1', '1e3', ' 1', '', '1\\u0030'])
      expect(at(`"${bad}"`).bookDecimal(), bad).toBeUndefined();
  });

  it('plainString: no escape and no raw control character; the text is the value', () => {
    const cursor = at('"0xab é😀"');
    expect(cursor.plainString()).toBe('0xab é😀');
    expect(cursor.atEnd()).toBe(true);
    expect(at('""').plainString()).toBe('');
    for (const bad of ['"a\\"b"', '"a\\\\b"', '"a\\u0041"', '"a\u0001b"', '"a\nb"', '"open', 'bare']) {
      const rejected = at(bad);
      expect(rejected.plainString(), bad).toBeUndefined();
      expect(rejected.pos).toBe(0);
    }
  });

  it('key: the text up to the next quote, and the colon after it', () => {
    const cursor = at('"channel":"oracle"');
    expect(cursor.key()).toBe('channel');
    expect(cursor.pos).toBe(10);
    expect(at('"channel" :1').key()).toBeUndefined();
    expect(at('"channel"').key()).toBeUndefined();
    expect(at('channel:').key()).toBeUndefined();
    // An escaped quote ends the key early, so it can match no name of the scanners'.
    expect(at('"chan\\"nel":1').key()).toBeUndefined();
  });

  it('take and takeChar consume only what matches', () => {
    const cursor = at('{"a":1}');
    expect(cursor.take('{"b"')).toBe(false);
    expect(cursor.pos).toBe(0);
    expect(cursor.takeChar(0x7b)).toBe(true);
    expect(cursor.take('"a":')).toBe(true);
    expect(cursor.peek()).toBe(0x31);
  });
});
