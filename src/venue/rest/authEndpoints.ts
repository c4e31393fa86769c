import { actionReceiptResponseSchema, type ActionReceipt } from '../schemas/restActionReceipt.js';
import {
  approveSingleRequestSchema,
  loginNonceResponseSchema,
  loginRequestSchema,
  refreshRequestSchema,
  registerSignerRequestSchema,
  registerSignerResponseSchema,
  revokeSignerRequestSchema,
  revokeSignerResponseSchema,
  sessionKeyStatusResponseSchema,
  tokenPairResponseSchema,
  type ApproveSingleRequestWire,
  type LoginNonce,
  type LoginRequestWire,
  type RefreshRequestWire,
  type RegisterSignerRequestWire,
  type RegisterSignerResult,
  type RevokeSignerRequestWire,
  type RevokeSignerResult,
  type SessionKeyStatus,
  type TokenPair,
} from '../schemas/restAuth.js';
import { loginNonceQuerySchema, sessionKeyStatusQuerySchema, type SessionKeyStatusQueryWire } from '../schemas/restQueries.js';
import type { RestCallOptions, RestTransport } from './restTransport.js';
import { checkedQuery } from './checkedQuery.js';

/** Signer setup, session-key status, JWT login and the operator-hub allowance. */

export async function getSessionKeyStatus(
  transport: RestTransport,
  query: SessionKeyStatusQueryWire,
  options?: RestCallOptions,
): Promise<SessionKeyStatus> {
  const endpoint = 'GET /v1/auth/session-key-status';
  const answer = await transport.request({
    method: 'GET',
    endpoint,
    path: '/v1/auth/session-key-status',
    query: checkedQuery(endpoint, sessionKeyStatusQuerySchema, query),
    responseSchema: sessionKeyStatusResponseSchema,
    options,
  });
  return answer.data;
}

/** The login / WebSocket nonce, normalised to lowercase 0x hex. */
export async function getLoginNonce(transport: RestTransport, account: string, options?: RestCallOptions): Promise<LoginNonce> {
  const endpoint = 'GET /v1/auth/nonce';
  return transport.request({
    method: 'GET',
    endpoint,
    path: '/v1/auth/nonce',
    query: checkedQuery(endpoint, loginNonceQuerySchema, { account }),
    responseSchema: loginNonceResponseSchema,
    options,
  });
}

export async function registerSigner(
  transport: RestTransport,
  body: RegisterSignerRequestWire,
  options?: RestCallOptions,
): Promise<RegisterSignerResult> {
  const answer = await transport.request({
    method: 'POST',
    endpoint: 'POST /v1/auth/register-signer',
    path: '/v1/auth/register-signer',
    body,
    requestSchema: registerSignerRequestSchema,
    responseSchema: registerSignerResponseSchema,
    options,
  });
  return answer.data;
}

export async function revokeSigner(transport: RestTransport, body: RevokeSignerRequestWire, options?: RestCallOptions): Promise<RevokeSignerResult> {
  const answer = await transport.request({
    method: 'POST',
    endpoint: 'POST /v1/auth/revoke-signer',
    path: '/v1/auth/revoke-signer',
    body,
    requestSchema: revokeSignerRequestSchema,
    responseSchema: revokeSignerResponseSchema,
    options,
  });
  return answer.data;
}

export async function login(transport: RestTransport, body: LoginRequestWire, options?: RestCallOptions): Promise<TokenPair> {
  const answer = await transport.request({
    method: 'POST',
    endpoint: 'POST /v1/auth/login',
    path: '/v1/auth/login',
    body,
    requestSchema: loginRequestSchema,
    responseSchema: tokenPairResponseSchema,
    options,
  });
  return answer.data;
}

export async function refreshTokens(transport: RestTransport, body: RefreshRequestWire, options?: RestCallOptions): Promise<TokenPair> {
  const answer = await transport.request({
    method: 'POST',
    endpoint: 'POST /v1/auth/refresh',
    path: '/v1/auth/refresh',
    body,
    requestSchema: refreshRequestSchema,
    responseSchema: tokenPairResponseSchema,
    options,
  });
  return answer.data;
}

export async function approveSingle(transport: RestTransport, body: ApproveSingleRequestWire, options?: RestCallOptions): Promise<ActionReceipt> {
  const answer = await transport.request({
    method: 'POST',
    endpoint: 'POST /v1/auth/approve-single',
    path: '/v1/auth/approve-single',
    body,
    requestSchema: approveSingleRequestSchema,
    responseSchema: actionReceiptResponseSchema,
    options,
  });
  return answer.data;
}
