import {
  cancelAllTpslRequestSchema,
  cancelTpslRequestSchema,
  cancelTpslResponseSchema,
  placeTpslRequestSchema,
  placeTpslResponseSchema,
  tpslOrdersQuerySchema,
  tpslOrdersResponseSchema,
  type CancelAllTpslRequestWire,
  type CancelTpslRequestWire,
  type CancelTpslResult,
  type PlaceTpslRequestWire,
  type PlaceTpslResult,
  type TpslOrderPage,
} from '../schemas/restTpsl.js';
import { TPSL_STATUSES, type StopTypeFilter, type TpslStatus } from '../schemas/tpslNames.js';
import { getData, postData } from './endpointCalls.js';
import type { RestCallOptions, RestTransport } from './restTransport.js';

/**
 * The venue's TP/SL endpoints (venue-tpsl.md "Endpoints"). The actions carry their own signature
 * in the body (no permit, no JWT): build the bodies with `tpslRequests.ts`.
 */

export interface TpslOrdersQuery {
  readonly account: string;
  readonly marketId?: number;
  /** 1-based; default 1. */
  readonly page?: number;
  /** 1..1000. */
  readonly limit?: number;
  /**
   * Default STOP_TYPE_NONE, sent explicitly: the venue's own default is TAKE_PROFIT, and a call
   * without the parameter silently omits every stop-loss (venue-tpsl.md).
   */
  readonly stopType?: StopTypeFilter;
  /** Default every status, sent as the parameter repeated. */
  readonly statuses?: readonly TpslStatus[];
  /** Unix nanoseconds, as `created_at`. */
  readonly startTime?: bigint;
  readonly endTime?: bigint;
}

/** Every status, in the venue's order: what a list asks for unless told otherwise. */
export const EVERY_TPSL_STATUS: readonly TpslStatus[] = TPSL_STATUSES;

export function getTpslOrders(
  transport: RestTransport,
  query: TpslOrdersQuery,
  options?: RestCallOptions,
): Promise<TpslOrderPage> {
  const values = {
    account: query.account,
    market_id: query.marketId === undefined ? undefined : String(query.marketId),
    page: String(query.page ?? 1),
    limit: query.limit === undefined ? undefined : String(query.limit),
    stop_type: query.stopType ?? 'STOP_TYPE_NONE',
    statuses: query.statuses ?? EVERY_TPSL_STATUS,
    start_time: query.startTime?.toString(),
    end_time: query.endTime?.toString(),
  };
  return getData(transport, '/v1/orders/tpsl', tpslOrdersResponseSchema, options, {
    schema: tpslOrdersQuerySchema,
    values,
  });
}

export function placeTpslOrder(
  transport: RestTransport,
  body: PlaceTpslRequestWire,
  options?: RestCallOptions,
): Promise<PlaceTpslResult> {
  return postData(transport, '/v1/orders/tpsl', placeTpslRequestSchema, placeTpslResponseSchema, body, options);
}

export function cancelTpslOrder(
  transport: RestTransport,
  body: CancelTpslRequestWire,
  options?: RestCallOptions,
): Promise<CancelTpslResult> {
  return postData(
    transport,
    '/v1/orders/tpsl/cancel',
    cancelTpslRequestSchema,
    cancelTpslResponseSchema,
    body,
    options,
  );
}

/** Cancels the market's ACCEPTED orders only: TRIGGERED ones are executing and stay (FB). */
export function cancelAllTpslOrders(
  transport: RestTransport,
  body: CancelAllTpslRequestWire,
  options?: RestCallOptions,
): Promise<CancelTpslResult> {
  return postData(
    transport,
    '/v1/orders/tpsl/cancel-all',
    cancelAllTpslRequestSchema,
    cancelTpslResponseSchema,
    body,
    options,
  );
}
