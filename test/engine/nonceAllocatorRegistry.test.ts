import { describe, expect, it } from 'vitest';
import { NonceAllocatorRegistry } from '../../src/engine/nonceAllocatorRegistry.js';

describe('NonceAllocatorRegistry', () => {
  it('keeps one allocator per account, whatever the address case', () => {
    const registry = new NonceAllocatorRegistry();
    const a = registry.open('0x00000000000000000000000000000000000000aB', { anchor: 1n, bitmap: 0n });
    expect(registry.get('0x00000000000000000000000000000000000000AB')).toBe(a);
    expect(registry.get('0x00000000000000000000000000000000000000ac')).toBeUndefined();
    expect(() => registry.open('0x00000000000000000000000000000000000000ab', { anchor: 1n, bitmap: 0n })).toThrow(/already open/);
    const b = registry.open('0x00000000000000000000000000000000000000cd', { anchor: 7n, bitmap: 0n });
    expect(a.tryAllocate()).toEqual({ anchor: 2n, bit: 0 });
    expect(b.tryAllocate()).toEqual({ anchor: 8n, bit: 0 });
    expect(registry.accounts()).toHaveLength(2);
  });
});
