import { keccak256 } from './keccak.js';
import { utf8ToBytes } from '@noble/hashes/utils';
import { parseAddress, type Address } from '../core/address.js';
import { InvalidValueError } from '../core/invalidValueError.js';
import { WORD, writeAddressWord, writeUintWord } from './abiWords.js';

/** The EIP-712 domain as signing uses it. */
export interface Eip712Domain {
  readonly name: string;
  readonly version: string;
  readonly chainId: bigint;
  readonly verifyingContract: Address;
}

/** The `data` object of GET /v1/auth/eip712-domain. */
export interface DomainWire {
  readonly name: string;
  readonly version: string;
  readonly chain_id: string | number;
  readonly verifying_contract: string;
}

/** chain_id arrives as a string or a number; both become a uint256 bigint. */
export function parseDomain(data: DomainWire): Eip712Domain {
  if (typeof data.name !== 'string') throw new InvalidValueError('domain.name', data.name, 'a string');
  if (typeof data.version !== 'string') throw new InvalidValueError('domain.version', data.version, 'a string');
  const chainId = parseChainId(data.chain_id);
  return Object.freeze({
    name: data.name,
    version: data.version,
    chainId,
    verifyingContract: parseAddress(data.verifying_contract, 'domain.verifying_contract'),
  });
}

function parseChainId(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return BigInt(value);
  if (typeof value === 'string' && /^[1-9]\d*$/.test(value)) return BigInt(value);
  throw new InvalidValueError('domain.chain_id', value, 'a positive decimal integer (string or number)');
}

const DOMAIN_TYPEHASH = keccak256(
  utf8ToBytes('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
);

/** hashStruct(EIP712Domain): computed once per domain and kept in the signing context. */
export function domainSeparator(domain: Eip712Domain): Uint8Array {
  const buf = new Uint8Array(5 * WORD);
  buf.set(DOMAIN_TYPEHASH, 0);
  buf.set(keccak256(utf8ToBytes(domain.name)), WORD);
  buf.set(keccak256(utf8ToBytes(domain.version)), 2 * WORD);
  writeUintWord(buf, 3 * WORD, domain.chainId);
  writeAddressWord(buf, 4 * WORD, domain.verifyingContract, 'domain.verifying_contract');
  return keccak256(buf);
}
