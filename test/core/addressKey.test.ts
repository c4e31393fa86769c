import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../src/core/addressKey.js';

describe('addressKey', () => {
  it('is the lower case of the text, whatever its case, asked once or again', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(addressKey(text)).toBe(text.toLowerCase());
        expect(addressKey(text)).toBe(text.toLowerCase());
      }),
    );
    const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7';
    expect(addressKey(checksummed)).toBe('0x52908400098527886e0f7030069857d2e4169ee7');
    expect(addressKey(checksummed.toLowerCase())).toBe(addressKey(checksummed));
  });

  it('stays right past its bound (it forgets, never answers another text)', () => {
    for (let i = 0; i < 25_000; i++) expect(addressKey(`0xAbC${i}`)).toBe(`0xabc${i}`);
  });
});
