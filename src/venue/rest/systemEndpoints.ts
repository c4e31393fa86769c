import { parseAddress } from '../../core/address.js';
import { eip712DomainResponseSchema, type Eip712Domain } from '../schemas/restAuth.js';
import { marketsResponseSchema, type Markets } from '../schemas/restMarkets.js';
import {
  nonceStateResponseSchema,
  systemConfigResponseSchema,
  type NonceState,
  type SystemConfig,
} from '../schemas/restSystem.js';
import { getData } from './endpointCalls.js';
import type { RestCallOptions, RestTransport } from './restTransport.js';

/** Read endpoints every signed action starts from: domain, config, nonce state, markets. */

export function getEip712Domain(transport: RestTransport, options?: RestCallOptions): Promise<Eip712Domain> {
  return getData(transport, '/v1/auth/eip712-domain', eip712DomainResponseSchema, options);
}

export function getSystemConfig(transport: RestTransport, options?: RestCallOptions): Promise<SystemConfig> {
  return getData(transport, '/v1/system/config', systemConfigResponseSchema, options);
}

export async function getNonceState(
  transport: RestTransport,
  account: string,
  options?: RestCallOptions,
): Promise<NonceState> {
  const checked = parseAddress(account, 'account');
  const answer = await transport.request({
    method: 'GET',
    endpoint: 'GET /v1/nonce-state/{account}',
    path: `/v1/nonce-state/${checked}`,
    responseSchema: nonceStateResponseSchema,
    options,
  });
  return answer.data;
}

export function getMarkets(transport: RestTransport, options?: RestCallOptions): Promise<Markets> {
  return getData(transport, '/v1/markets', marketsResponseSchema, options);
}
