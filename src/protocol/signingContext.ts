import type { Address } from '../core/address.js';
import { parseAddress } from '../core/address.js';
import { domainSeparator, type Eip712Domain } from './domain.js';
import { eip712Digest, structHash } from './structHash.js';
import type { StructMessages, StructName } from './typedStructs.js';

/**
 * Everything a signature needs that does not change between actions: the domain, its separator
 * (computed once here), and the router that every permit targets. Built from the domain and
 * system-config reads; rebuilt when the venue is redeployed.
 */
export interface SigningContext {
  readonly domain: Eip712Domain;
  readonly separator: Uint8Array;
  /** `addresses.router`: the `target` of every permit. Not the domain's verifying contract. */
  readonly router: Address;
}

export function createSigningContext(domain: Eip712Domain, router: string): SigningContext {
  return Object.freeze({
    domain,
    separator: domainSeparator(domain),
    router: parseAddress(router, 'addresses.router'),
  });
}

/** The EIP-712 digest of one of the venue's structs under this context's domain. */
export function typedDigest<N extends StructName>(
  context: SigningContext,
  name: N,
  message: StructMessages[N],
): Uint8Array {
  return eip712Digest(context.separator, structHash(name, message));
}
