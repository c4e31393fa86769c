import { describe, expect, it } from 'vitest';
import { parseDomain } from '../../src/protocol/domain.js';

describe('parseDomain', () => {
  const wire = { name: 'RISEx', version: '1', verifying_contract: '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd' };

  it('accepts chain_id as a string or a number and checksums the verifying contract', () => {
    const fromString = parseDomain({ ...wire, chain_id: '11155931' });
    const fromNumber = parseDomain({ ...wire, chain_id: 11155931 });
    expect(fromString).toEqual(fromNumber);
    expect(fromString.chainId).toBe(11155931n);
    expect(fromString.verifyingContract).toBe('0xABcdEFABcdEFabcdEfAbCdefabcdeFABcDEFabCD');
  });

  it.each([
    [{ ...wire, chain_id: '0x1' }, /^domain.chain_id: invalid value "0x1"/],
    [{ ...wire, chain_id: 1.5 }, /^domain.chain_id: invalid value 1.5/],
    [{ ...wire, chain_id: '0' }, /^domain.chain_id/],
    [{ ...wire, chain_id: 1, verifying_contract: '0x12' }, /^domain.verifying_contract: invalid value "0x12"/],
  ])('refuses %o', (data, message) => {
    expect(() => parseDomain(data)).toThrow(message);
  });
});
