import type { Address } from '../../core/address.js';
import { parseDomain } from '../../protocol/domain.js';
import { createSigningContext, type SigningContext } from '../../protocol/signingContext.js';
import type { RestClient } from '../../venue/rest/restClient.js';

/** The REST calls the setup flow makes; a full `RestClient` satisfies it. */
export type SetupRest = Pick<
  RestClient,
  | 'eip712Domain'
  | 'systemConfig'
  | 'nonceState'
  | 'deposit'
  | 'crossMarginBalance'
  | 'registerSigner'
  | 'revokeSigner'
  | 'sessionKeyStatus'
  | 'loginNonce'
  | 'login'
  | 'approveSingle'
  | 'cancelAll'
>;

export interface VenueSigningInfo {
  readonly context: SigningContext;
  /** `addresses.operator_hub` of the system config, when the venue publishes one. */
  readonly operatorHub: Address | undefined;
}

/**
 * Domain and system config, read fresh: setup runs rarely and a redeploy changes both, so nothing
 * is cached across runs.
 */
export async function readSigningInfo(
  rest: Pick<RestClient, 'eip712Domain' | 'systemConfig'>,
  signal?: AbortSignal,
): Promise<VenueSigningInfo> {
  const options = signal === undefined ? undefined : { signal };
  const [domain, system] = await Promise.all([rest.eip712Domain(options), rest.systemConfig(options)]);
  const context = createSigningContext(
    parseDomain({
      name: domain.name,
      version: domain.version,
      chain_id: domain.chain_id.toString(),
      verifying_contract: domain.verifying_contract,
    }),
    system.addresses.router,
  );
  return { context, operatorHub: system.addresses.operator_hub };
}
