import { actionReceiptResponseSchema, type ActionReceipt } from '../schemas/restActionReceipt.js';
import {
  approveSingleRequestSchema,
  bareLoginNonce,
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
import {
  loginNonceQuerySchema,
  sessionKeyStatusQuerySchema,
  type SessionKeyStatusQueryWire,
} from '../schemas/restQueries.js';
import type { RestCallOptions, RestTransport } from './restTransport.js';
import { checkedQuery } from './checkedQuery.js';
import { getData, postData } from './endpointCalls.js';

/** Signer setup, session-key status, JWT login and the operator-hub allowance. */

export function getSessionKeyStatus(
  transport: RestTransport,
  query: SessionKeyStatusQueryWire,
  options?: RestCallOptions,
): Promise<SessionKeyStatus> {
  return getData(transport, '/v1/auth/session-key-status', sessionKeyStatusResponseSchema, options, {
    schema: sessionKeyStatusQuerySchema,
    values: query,
  });
}

/** The login / WebSocket nonce, normalised to lowercase 0x hex. */
export async function getLoginNonce(
  transport: RestTransport,
  account: string | undefined,
  options?: RestCallOptions,
): Promise<LoginNonce> {
  const endpoint = 'GET /v1/auth/nonce';
  return transport.request({
    method: 'GET',
    endpoint,
    path: '/v1/auth/nonce',
    query: checkedQuery(endpoint, loginNonceQuerySchema, account === undefined ? {} : { account }),
    responseSchema: loginNonceResponseSchema,
    options,
  });
}

export function registerSigner(
  transport: RestTransport,
  body: RegisterSignerRequestWire,
  options?: RestCallOptions,
): Promise<RegisterSignerResult> {
  return postData(
    transport,
    '/v1/auth/register-signer',
    registerSignerRequestSchema,
    registerSignerResponseSchema,
    body,
    options,
  );
}

export function revokeSigner(
  transport: RestTransport,
  body: RevokeSignerRequestWire,
  options?: RestCallOptions,
): Promise<RevokeSignerResult> {
  return postData(
    transport,
    '/v1/auth/revoke-signer',
    revokeSignerRequestSchema,
    revokeSignerResponseSchema,
    body,
    options,
  );
}

/** The nonce goes out as the venue sent it: bare hex, without 0x (venue-wire.md §2 login). */
export function login(transport: RestTransport, body: LoginRequestWire, options?: RestCallOptions): Promise<TokenPair> {
  const wire = { ...body, nonce: bareLoginNonce(body.nonce) };
  return postData(transport, '/v1/auth/login', loginRequestSchema, tokenPairResponseSchema, wire, options);
}

export function refreshTokens(
  transport: RestTransport,
  body: RefreshRequestWire,
  options?: RestCallOptions,
): Promise<TokenPair> {
  return postData(transport, '/v1/auth/refresh', refreshRequestSchema, tokenPairResponseSchema, body, options);
}

export function approveSingle(
  transport: RestTransport,
  body: ApproveSingleRequestWire,
  options?: RestCallOptions,
): Promise<ActionReceipt> {
  return postData(
    transport,
    '/v1/auth/approve-single',
    approveSingleRequestSchema,
    actionReceiptResponseSchema,
    body,
    options,
  );
}
