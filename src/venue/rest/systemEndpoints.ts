import { parseAddress } from '../../core/address.js';
import { eip712DomainResponseSchema, type Eip712Domain } from '../schemas/restAuth.js';
import { marketsResponseSchema, type Markets } from '../schemas/restMarkets.js';
import {
  nonceStateResponseSchema,
  systemConfigResponseSchema,
  type NonceState,
  type SystemConfig,
} from '../schemas/restSystem.js';
import type { RestCallOptions, RestTransport } from './restTransport.js';

/** Read endpoints every signed action starts from: domain, config, nonce state, markets. */

export async function getEip712Domain(transport: RestTransport, options?: RestCallOptions): Promise<Eip712Domain> {
  const endpoint = 'GET /v1/auth/eip712-domain';
  const answer = await transport.request({ method: 'GET', endpoint, path: '/v1/auth/eip712-domain', responseSchema: eip712DomainResponseSchema, options });
  return answer.data;
}

export async function getSystemConfig(transport: RestTransport, options?: RestCallOptions): Promise<SystemConfig> {
  const endpoint = 'GET /v1/system/config';
  const answer = await transport.request({ method: 'GET', endpoint, path: '/v1/system/config', responseSchema: systemConfigResponseSchema, options });
  return answer.data;
}

export async function getNonceState(transport: RestTransport, account: string, options?: RestCallOptions): Promise<NonceState> {
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

export async function getMarkets(transport: RestTransport, options?: RestCallOptions): Promise<Markets> {
  const answer = await transport.request({ method: 'GET', endpoint: 'GET /v1/markets', path: '/v1/markets', responseSchema: marketsResponseSchema, options });
  return answer.data;
}
