import type { Address } from '../../core/address.js';
import { registerRecentSecret } from '../../core/secretRegistry.js';
import {
  cancelAllOrdersHash,
  cancelOrderHash,
  updateIsolatedMarginHash,
  updateLeverageHash,
  updateMarginModeHash,
  type Hex32,
} from '../../protocol/actionHashes.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import { placeOrderFieldsHash, type PlaceOrderFields } from '../../protocol/placeOrderFieldsHash.js';
import { signPermitNow, type PermitSignatureEncoding, type PermitWire } from '../../protocol/permit.js';
import type { SelectorTable } from '../../protocol/selectors.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { NoncePair } from '../nonces/noncePair.js';
import type { WireAction } from './wireAction.js';

/**
 * A checked wire action whose cancel target has been resolved to the venue's ids: the cancel hash
 * commits to `resting_order_id`, while the body carries the `order_id` string.
 */
export type ResolvedAction =
  | Exclude<WireAction, { action: 'cancelOrder' }>
  | {
      readonly action: 'cancelOrder';
      readonly market_id: number;
      readonly order_id: string;
      readonly resting_order_id: bigint;
    };

export type Endpoint = ResolvedAction['action'];

/** Permit authorisation: one (anchor, bit) and a deadline, signed by the session key. */
export interface PermitAuthorization {
  readonly mode: 'permit';
  readonly context: SigningContext;
  readonly signer: SignerLike;
  readonly account: Address;
  readonly nonce: NoncePair;
  /** uint32 unix seconds. */
  readonly deadline: number;
  readonly encoding?: PermitSignatureEncoding;
}

/** JWT authorisation: the body carries no permit; the transport adds the Bearer header. */
export interface JwtAuthorization {
  readonly mode: 'jwt';
}

export type Authorization = PermitAuthorization | JwtAuthorization;

/** The exact body for one endpoint, and what was used to authorise it (to report its fate). */
export interface SignedRequest {
  readonly endpoint: Endpoint;
  readonly body: Readonly<Record<string, unknown>>;
  readonly nonce?: NoncePair;
  readonly deadline?: number;
  readonly actionHash: Hex32;
}

/** The action hash the venue recomputes from the body (spec "Action hashes"). */
export function actionHashOf(action: ResolvedAction, selectors: SelectorTable): Hex32 {
  switch (action.action) {
    case 'placeOrder': {
      // Straight from the fields (no bigint order word on the order path); bit-identical to
      // placeOrderHash({ orderWord: orderWordOf(order), clientOrderId, ttlUnits }).
      const o = action.order;
      const fields: { -readonly [K in keyof PlaceOrderFields]: PlaceOrderFields[K] } = {
        marketId: o.market_id,
        sizeSteps: o.size_steps,
        priceTicks: o.price_ticks,
        side: o.side,
        postOnly: o.post_only,
        reduceOnly: o.reduce_only,
        stpMode: o.stp_mode,
        orderType: o.order_type,
        timeInForce: o.time_in_force,
      };
      if (o.client_order_id !== undefined) fields.clientOrderId = o.client_order_id;
      if (o.ttl_units !== undefined) fields.ttlUnits = o.ttl_units;
      return placeOrderFieldsHash(fields, selectors);
    }
    case 'cancelOrder':
      return cancelOrderHash(action.market_id, action.resting_order_id, selectors);
    case 'cancelAllOrders':
      return cancelAllOrdersHash(action.market_id, selectors);
    case 'updateLeverage':
      return updateLeverageHash(action.market_id, action.leverage, selectors);
    case 'updateMarginMode':
      return updateMarginModeHash(action.market_id, action.margin_mode, selectors);
    case 'updateIsolatedMargin':
      return updateIsolatedMarginHash(action.market_id, action.amount, selectors);
  }
}

/** The body fields of the action, in the spec's order, without authorisation. */
export function bodyOf(action: ResolvedAction): Record<string, unknown> {
  switch (action.action) {
    case 'placeOrder': {
      const o = action.order;
      const body: Record<string, unknown> = {
        market_id: o.market_id,
        size_steps: o.size_steps,
        price_ticks: o.price_ticks,
        side: o.side,
        post_only: o.post_only,
        reduce_only: o.reduce_only,
        stp_mode: o.stp_mode,
        order_type: o.order_type,
        time_in_force: o.time_in_force,
      };
      if (o.client_order_id !== undefined) body['client_order_id'] = o.client_order_id.toString();
      if (o.ttl_units !== undefined) body['ttl_units'] = o.ttl_units;
      return body;
    }
    case 'cancelOrder':
      return { market_id: action.market_id, order_id: action.order_id };
    case 'cancelAllOrders':
      return { market_id: action.market_id };
    case 'updateLeverage':
      return { market_id: String(action.market_id), leverage: String(action.leverage) };
    case 'updateMarginMode':
      return { market_id: String(action.market_id), margin_mode: action.margin_mode };
    case 'updateIsolatedMargin':
      return { market_id: String(action.market_id), amount: action.amount.toString() };
  }
}

/** Account actions carry the permit as `permit_params`; order actions as `permit`. */
function permitField(endpoint: Endpoint): 'permit' | 'permit_params' {
  return endpoint === 'placeOrder' || endpoint === 'cancelOrder' || endpoint === 'cancelAllOrders'
    ? 'permit'
    : 'permit_params';
}

export async function buildSignedRequest(
  action: ResolvedAction,
  auth: Authorization,
  selectors: SelectorTable,
): Promise<SignedRequest> {
  return signRequest(action, auth, selectors);
}

/**
 * `buildSignedRequest`, answering synchronously when the signer does (the in-process key
 * signers), so an order's way from the engine to the socket has no microtask hop; a promise with
 * an asynchronous signer. Throws (rather than rejects) when the action cannot be signed.
 */
export function signRequest(
  action: ResolvedAction,
  auth: Authorization,
  selectors: SelectorTable,
): SignedRequest | Promise<SignedRequest> {
  const actionHash = actionHashOf(action, selectors);
  const body = bodyOf(action);
  if (auth.mode === 'jwt') return { endpoint: action.action, body, actionHash };
  const permit = signPermitNow(
    auth.context,
    auth.signer,
    {
      account: auth.account,
      actionHash,
      nonceAnchor: auth.nonce.anchor,
      nonceBitmap: auth.nonce.bit,
      deadline: auth.deadline,
    },
    auth.encoding ?? 'compact64',
  );
  if (permit instanceof Promise) return permit.then((p) => withPermit(action, body, p, auth, actionHash));
  return withPermit(action, body, permit, auth, actionHash);
}

function withPermit(
  action: ResolvedAction,
  body: Record<string, unknown>,
  permit: PermitWire,
  auth: PermitAuthorization,
  actionHash: Hex32,
): SignedRequest {
  // bodyOf made a fresh object: the permit goes on it directly (a spread adding a field is slow in V8).
  body[permitField(action.action)] = permit;
  // One array push: the redactor recognises the signature if the venue ever echoes it back.
  registerRecentSecret(permit.signature);
  return { endpoint: action.action, body, nonce: auth.nonce, deadline: auth.deadline, actionHash };
}
