import { actionReceiptResponseSchema, type ActionReceipt } from '../schemas/restActionReceipt.js';
import {
  crossMarginBalanceResponseSchema,
  depositRequestSchema,
  depositResponseSchema,
  isolatedMarginRequestSchema,
  leverageRequestSchema,
  marginModeRequestSchema,
  positionResponseSchema,
  type CrossMarginBalance,
  type DepositRequestWire,
  type DepositResult,
  type IsolatedMarginRequestWire,
  type LeverageRequestWire,
  type MarginModeRequestWire,
  type Position,
} from '../schemas/restAccount.js';
import { crossMarginBalanceQuerySchema, positionQuerySchema, type PositionQueryWire } from '../schemas/restQueries.js';
import { checkedQuery } from './checkedQuery.js';
import type { RestCallOptions, RestTransport } from './restTransport.js';
import { checkTradingAuth } from './tradingAuth.js';

/** Faucet, per-market account settings (permit or JWT) and the unsigned account reads. */

export async function depositFaucet(transport: RestTransport, body: DepositRequestWire, options?: RestCallOptions): Promise<DepositResult> {
  const answer = await transport.request({
    method: 'POST',
    endpoint: 'POST /v1/account/deposit',
    path: '/v1/account/deposit',
    body,
    requestSchema: depositRequestSchema,
    responseSchema: depositResponseSchema,
    options,
  });
  return answer.data;
}

export async function updateLeverage(transport: RestTransport, body: LeverageRequestWire, options?: RestCallOptions): Promise<ActionReceipt> {
  const endpoint = 'POST /v1/account/leverage';
  checkTradingAuth(endpoint, body.permit_params, options);
  const answer = await transport.request({
    method: 'POST',
    endpoint,
    path: '/v1/account/leverage',
    body,
    requestSchema: leverageRequestSchema,
    responseSchema: actionReceiptResponseSchema,
    options,
  });
  return answer.data;
}

export async function updateMarginMode(transport: RestTransport, body: MarginModeRequestWire, options?: RestCallOptions): Promise<ActionReceipt> {
  const endpoint = 'POST /v1/account/margin-mode';
  checkTradingAuth(endpoint, body.permit_params, options);
  const answer = await transport.request({
    method: 'POST',
    endpoint,
    path: '/v1/account/margin-mode',
    body,
    requestSchema: marginModeRequestSchema,
    responseSchema: actionReceiptResponseSchema,
    options,
  });
  return answer.data;
}

export async function updateIsolatedMargin(
  transport: RestTransport,
  body: IsolatedMarginRequestWire,
  options?: RestCallOptions,
): Promise<ActionReceipt> {
  const endpoint = 'POST /v1/account/isolated-margin';
  checkTradingAuth(endpoint, body.permit_params, options);
  const answer = await transport.request({
    method: 'POST',
    endpoint,
    path: '/v1/account/isolated-margin',
    body,
    requestSchema: isolatedMarginRequestSchema,
    responseSchema: actionReceiptResponseSchema,
    options,
  });
  return answer.data;
}

/** The position in one market; a flat one has market_id "0" and null fields (see isFlatPosition). */
export async function getPosition(transport: RestTransport, query: PositionQueryWire, options?: RestCallOptions): Promise<Position> {
  const endpoint = 'GET /v1/account/position';
  const answer = await transport.request({
    method: 'GET',
    endpoint,
    path: '/v1/account/position',
    query: checkedQuery(endpoint, positionQuerySchema, query),
    responseSchema: positionResponseSchema,
    options,
  });
  return answer.data.position;
}

export async function getCrossMarginBalance(transport: RestTransport, account: string, options?: RestCallOptions): Promise<CrossMarginBalance> {
  const endpoint = 'GET /v1/account/cross-margin-balance';
  const answer = await transport.request({
    method: 'GET',
    endpoint,
    path: '/v1/account/cross-margin-balance',
    query: checkedQuery(endpoint, crossMarginBalanceQuerySchema, { account }),
    responseSchema: crossMarginBalanceResponseSchema,
    options,
  });
  return answer.data;
}
