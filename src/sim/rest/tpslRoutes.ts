import type { Address } from '../../core/address.js';
import { sameAddress } from '../../core/address.js';
import { tpslOrdersQuerySchema } from '../../venue/schemas/restTpsl.js';
import {
  cancelAllTpslAcceptSchema,
  cancelTpslAcceptSchema,
  placeTpslAcceptSchema,
} from '../../venue/schemas/restTpslAccepted.js';
import type { TpslOrdersWire } from '../../venue/schemas/restTpslCanonical.js';
import { TPSL_STATUSES } from '../../venue/schemas/tpslNames.js';
import { invalidArgument, SimRefusal } from '../simRefusal.js';
import type { SimRuntime } from '../simRuntime.js';
import { tpslOrderWire } from '../tpsl/simTpslOrder.js';
import { MAX_ACTIVE_TPSL_PER_ACCOUNT } from '../tpsl/tpslBook.js';
import { checkTpslOrder } from '../tpsl/tpslPlaceChecks.js';
import { cancelTpslSignedBy, placeTpslSignedBy, type TpslSignedBy } from '../tpsl/tpslSignatures.js';
import { checkRegistered } from './authorizeAction.js';
import { parseInput } from './parseInput.js';
import { decodeSignature } from './setupSignature.js';
import { ok, type SimRequest, type SimResponse, type SimRoute } from './simRoute.js';
import type { Signature } from '../../protocol/signature.js';

/**
 * The venue's TP/SL endpoints (venue-tpsl.md "Endpoints"): orders the venue keeps off-chain and
 * executes (`tpsl/tpslWatcher.ts`). Each action is signed by a session signer of the account over
 * its own struct, with no nonce: the deadline is the replay protection, and the same signed place
 * request places one order.
 */

function placeTpsl(runtime: SimRuntime, request: SimRequest): SimResponse {
  const body = parseInput(placeTpslAcceptSchema, request.body, 'body');
  const signed = authorize(runtime, body, 'PlaceTpslOrder', (signature) =>
    placeTpslSignedBy(runtime.signingContext, body, signature),
  );
  if (runtime.options.refuseTpsl)
    throw new SimRefusal(400, 'FailedPrecondition', 'TP/SL order placement is blocked pending signature verification');
  const placed = runtime.tpsl.placedBy(signed.digest);
  if (placed !== undefined) {
    throw new SimRefusal(
      409,
      'AlreadyExists',
      `this signed TP/SL request already placed order ${placed}; sign again (another deadline) to place another`,
    );
  }
  const order = checkTpslOrder(runtime.exchange.marketSpec(Number(body.market_id)), body, runtime.clock.now());
  if (runtime.tpsl.activeCount(body.account) >= MAX_ACTIVE_TPSL_PER_ACCOUNT) {
    throw new SimRefusal(
      400,
      'FailedPrecondition',
      `account ${body.account} has ${MAX_ACTIVE_TPSL_PER_ACCOUNT} active TP/SL orders, the most it may hold; cancel some first`,
    );
  }
  return ok({ order_id: runtime.tpsl.place(order, signed.digest).orderId });
}

function cancelTpsl(runtime: SimRuntime, request: SimRequest): SimResponse {
  const body = parseInput(cancelTpslAcceptSchema, request.body, 'body');
  authorize(runtime, body, 'CancelTpslOrder', (signature) =>
    cancelTpslSignedBy(runtime.signingContext, { kind: 'one', ...body, orderId: body.order_id }, signature),
  );
  const order = runtime.tpsl.find(body.account, body.order_id);
  if (order === undefined)
    throw new SimRefusal(404, 'NotFound', `TP/SL order ${body.order_id} not found for account ${body.account}`);
  if (order.status !== 'TPSL_ORDER_STATUS_ACCEPTED') {
    const why = order.status === 'TPSL_ORDER_STATUS_TRIGGERED' ? 'it has fired and is executing' : 'it is finished';
    throw new SimRefusal(
      400,
      'FailedPrecondition',
      `TP/SL order ${order.orderId} is ${order.status}: ${why}; only an ACCEPTED order can be cancelled`,
    );
  }
  order.status = 'TPSL_ORDER_STATUS_CANCELLED';
  return ok({ success: true });
}

/** Cancels the market's ACCEPTED orders only: TRIGGERED ones are executing and stay (FB). */
function cancelAllTpsl(runtime: SimRuntime, request: SimRequest): SimResponse {
  const body = parseInput(cancelAllTpslAcceptSchema, request.body, 'body');
  authorize(runtime, body, 'CancelAllTpslOrders', (signature) =>
    cancelTpslSignedBy(runtime.signingContext, { kind: 'all', ...body, marketId: body.market_id }, signature),
  );
  const marketId = Number(body.market_id);
  if (runtime.exchange.marketSpec(marketId) === undefined)
    throw new SimRefusal(400, 'NotFound', `market ${marketId} does not exist; list markets with GET /v1/markets`);
  let cancelled = 0;
  for (const order of runtime.tpsl.orders(body.account)) {
    if (order.marketId !== marketId || order.status !== 'TPSL_ORDER_STATUS_ACCEPTED') continue;
    order.status = 'TPSL_ORDER_STATUS_CANCELLED';
    cancelled += 1;
  }
  return ok({ success: true, cancelled_count: cancelled });
}

/**
 * The registered account, an unexpired deadline, then a signature that recovers to the body's
 * `signer`, an Active session key of the account (an in-process replay trusts the named signer).
 */
function authorize(
  runtime: SimRuntime,
  body: { readonly account: Address; readonly signer: Address; readonly signature: string; readonly deadline: number },
  action: string,
  signedBy: (signature: Signature) => TpslSignedBy,
): TpslSignedBy {
  checkRegistered(runtime, body.account);
  const now = runtime.nowSeconds();
  if (body.deadline < now) throw invalidArgument(`${action} deadline expired (deadline ${body.deadline}, now ${now})`);
  const signed = signedBy(decodeSignature(body.signature, 'signature', 'hex-or-base64'));
  const chain = runtime.chainState;
  const recovered = chain.signers.trustsSignaturesOf(body.account) ? body.signer : signed.recovered;
  if (!sameAddress(recovered, body.signer) || !chain.signers.isActive(body.account, recovered)) {
    throw new SimRefusal(
      400,
      'FailedPrecondition',
      `${action}: SignerNotAuthorized(${recovered}): the signature recovers to no Active session key of account ${body.account} (signer ${body.signer})`,
    );
  }
  return signed;
}

/** The venue's default stop type is TAKE_PROFIT (venue-tpsl.md): a list without one omits every stop-loss. */
function listTpsl(runtime: SimRuntime, request: SimRequest): SimResponse {
  const statuses = new URL(request.target, 'http://sim.invalid').searchParams.getAll('statuses');
  const query = parseInput(
    tpslOrdersQuerySchema,
    { ...request.query, ...(statuses.length === 0 ? {} : { statuses }) },
    'query',
  );
  const page = query.page ?? 1;
  const limit = query.limit ?? 100;
  const all = runtime.tpsl.list(query.account, {
    ...(query.market_id === undefined ? {} : { marketId: Number(query.market_id) }),
    stopType: query.stop_type ?? 'TAKE_PROFIT',
    statuses: new Set(query.statuses ?? TPSL_STATUSES),
    ...(query.start_time === undefined ? {} : { startNs: query.start_time }),
    ...(query.end_time === undefined ? {} : { endNs: query.end_time }),
  });
  const data: TpslOrdersWire = {
    orders: all.slice((page - 1) * limit, page * limit).map(tpslOrderWire),
    total: String(all.length),
    page,
    limit,
  };
  return ok(data);
}

export const TPSL_ROUTES: readonly SimRoute[] = [
  { method: 'POST', pattern: '/v1/orders/tpsl', mutates: true, handle: placeTpsl },
  { method: 'POST', pattern: '/v1/orders/tpsl/cancel', mutates: true, handle: cancelTpsl },
  { method: 'POST', pattern: '/v1/orders/tpsl/cancel-all', mutates: true, handle: cancelAllTpsl },
  { method: 'GET', pattern: '/v1/orders/tpsl', mutates: false, handle: listTpsl },
];
