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
import { getData, postData, postTradingAction } from './endpointCalls.js';
import type { RestCallOptions, RestTransport } from './restTransport.js';

/** Faucet, per-market account settings (permit or JWT) and the unsigned account reads. */

export function depositFaucet(
  transport: RestTransport,
  body: DepositRequestWire,
  options?: RestCallOptions,
): Promise<DepositResult> {
  return postData(transport, '/v1/account/deposit', depositRequestSchema, depositResponseSchema, body, options);
}

export function updateLeverage(
  transport: RestTransport,
  body: LeverageRequestWire,
  options?: RestCallOptions,
): Promise<ActionReceipt> {
  return postTradingAction(
    transport,
    '/v1/account/leverage',
    leverageRequestSchema,
    actionReceiptResponseSchema,
    body,
    body.permit_params,
    options,
  );
}

export function updateMarginMode(
  transport: RestTransport,
  body: MarginModeRequestWire,
  options?: RestCallOptions,
): Promise<ActionReceipt> {
  return postTradingAction(
    transport,
    '/v1/account/margin-mode',
    marginModeRequestSchema,
    actionReceiptResponseSchema,
    body,
    body.permit_params,
    options,
  );
}

export function updateIsolatedMargin(
  transport: RestTransport,
  body: IsolatedMarginRequestWire,
  options?: RestCallOptions,
): Promise<ActionReceipt> {
  return postTradingAction(
    transport,
    '/v1/account/isolated-margin',
    isolatedMarginRequestSchema,
    actionReceiptResponseSchema,
    body,
    body.permit_params,
    options,
  );
}

/** The position in one market; a flat one has market_id "0" and null fields (see isFlatPosition). */
export async function getPosition(
  transport: RestTransport,
  query: PositionQueryWire,
  options?: RestCallOptions,
): Promise<Position> {
  const data = await getData(transport, '/v1/account/position', positionResponseSchema, options, {
    schema: positionQuerySchema,
    values: query,
  });
  return data.position;
}

export function getCrossMarginBalance(
  transport: RestTransport,
  account: string,
  options?: RestCallOptions,
): Promise<CrossMarginBalance> {
  return getData(transport, '/v1/account/cross-margin-balance', crossMarginBalanceResponseSchema, options, {
    schema: crossMarginBalanceQuerySchema,
    values: { account },
  });
}
