import type { TypedDataDefinition } from 'viem';
import type { Eip712Domain } from './domain.js';
import { primaryTypeOf, TYPED_STRUCTS, type StructMessages, type StructName } from './typedStructs.js';

/**
 * The same structs in viem's typed-data shape: the reference the fast path is tested against,
 * and a way to sign with any viem account (a hardware wallet for the account key, say).
 */
export function viemTypedData<N extends StructName>(
  domain: Eip712Domain,
  name: N,
  message: StructMessages[N],
): TypedDataDefinition {
  const fields = TYPED_STRUCTS[name].map((f) => ({ name: f.name, type: f.type }));
  const values = Object.fromEntries(
    TYPED_STRUCTS[name].map((f) => {
      const value = (message as unknown as Record<string, unknown>)[f.name];
      return [f.name, f.type.startsWith('uint') ? BigInt(value as bigint | number) : value];
    }),
  );
  return {
    domain: {
      name: domain.name,
      version: domain.version,
      chainId: domain.chainId,
      verifyingContract: domain.verifyingContract,
    },
    types: { [primaryTypeOf(name)]: fields },
    primaryType: primaryTypeOf(name),
    message: values,
  } as unknown as TypedDataDefinition;
}
