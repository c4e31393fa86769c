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
import { toHex } from '../../protocol/abiWords.js';
import {
  placeOrderFieldsHashBytes,
  placeOrderFieldsHash,
  placeOrderFieldsOf,
} from '../../protocol/placeOrderFieldsHash.js';
import { permitJson, signPermitNow, type PermitSignatureEncoding, type PermitWire } from '../../protocol/permit.js';
import type { SelectorTable } from '../../protocol/selectors.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { NoncePair } from '../nonces/noncePair.js';
import { checkedBody, type ActionRequestBodies } from '../../venue/rest/actionBodies.js';
import type {
  IsolatedMarginRequestWire,
  LeverageRequestWire,
  MarginModeRequestWire,
} from '../../venue/schemas/restAccount.js';
import type {
  CancelAllRequestWire,
  CancelOrderRequestWire,
  PlaceOrderRequestWire,
} from '../../venue/schemas/restOrders.js';
import type { ResolvedAction, WireOrder } from '../checks/wireAction.js';
import type { Endpoint, PermitParts, SignedRequestOf } from './signedRequestShape.js';
import { UnreadHashRequest } from './unreadHashRequest.js';

export type { Endpoint, SignedRequestOf } from './signedRequestShape.js';

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

/** One signed action, discriminated by its endpoint: `switch (request.endpoint)` narrows the body. */
export type SignedRequest = { [E in Endpoint]: SignedRequestOf<E> }[Endpoint];

/** The signed request of one endpoint. */
export type SignedRequestFor<E extends Endpoint> = Extract<SignedRequest, { readonly endpoint: E }>;

/** The action hash the venue recomputes from the body (spec "Action hashes"). */
export function actionHashOf(action: ResolvedAction, selectors: SelectorTable): Hex32 {
  switch (action.action) {
    case 'placeOrder':
      return placeOrderFieldsHash(placeOrderFieldsOf(action.order), selectors);
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

export async function buildSignedRequest<A extends ResolvedAction>(
  action: A,
  auth: Authorization,
  selectors: SelectorTable,
): Promise<SignedRequestFor<A['action']>>;
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
  if (auth.mode === 'permit' && ignoresDigest(auth.signer)) return signUnread(action, auth, selectors);
  // An order's hash as bytes, signed as they are; its hex for the request's record, written when
  // the record's hash is first read (a dry run's log): nothing on the order's way to the socket reads it.
  const hashed =
    action.action === 'placeOrder'
      ? placeOrderFieldsHashBytes(placeOrderFieldsOf(action.order), selectors)
      : actionHashOf(action, selectors);
  const actionHash = typeof hashed === 'string' ? hashed : hexWhenRead(hashed);
  if (auth.mode === 'jwt') return requestOf(action, undefined, actionHash);
  const permit = signPermitNow(
    auth.context,
    auth.signer,
    {
      account: auth.account,
      actionHash: hashed,
      nonceAnchor: auth.nonce.anchor,
      nonceBitmap: auth.nonce.bit,
      deadline: auth.deadline,
    },
    auth.encoding ?? 'compact64',
  );
  if (permit instanceof Promise) return permit.then((p) => withPermit(action, p, auth, actionHash));
  return withPermit(action, permit, auth, actionHash);
}

/** The hash's hex, written when first asked for. */
function hexWhenRead(hash: Uint8Array): () => Hex32 {
  return () => toHex(hash);
}

/** Whether the signer's answer does not depend on the digest (a replay's placeholder). */
function ignoresDigest(signer: SignerLike): boolean {
  return 'ignoresDigest' in signer && signer.ignoresDigest === true;
}

/** What a signer that ignores the digest is given as the action's hash: it reads none. */
const UNREAD_HASH = new Uint8Array(32);

/**
 * The request of a signer that ignores the digest (a replay's placeholder, whose permits no one
 * recovers): the permit signed without the action's hash, which only the request's record keeps
 * (a dry run logs it), worked out when first read. A keccak digest an action saved, about 18 µs
 * of a replay's CPU each (a cold native call, against 1.5 µs in a loop).
 */
function signUnread(action: ResolvedAction, auth: PermitAuthorization, selectors: SelectorTable): SignedRequest {
  const permit = signPermitNow(
    auth.context,
    auth.signer,
    {
      account: auth.account,
      actionHash: UNREAD_HASH,
      nonceAnchor: auth.nonce.anchor,
      nonceBitmap: auth.nonce.bit,
      deadline: auth.deadline,
    },
    auth.encoding ?? 'compact64',
  );
  // A signer that ignores the digest answers at once (its type allows a promise: taken as any other's).
  if (permit instanceof Promise) throw new Error('a signer that ignores the digest must answer synchronously');
  registerRecentSecret(permit.signature);
  return requestOf(action, { permit, nonce: auth.nonce, deadline: auth.deadline }, () =>
    actionHashOf(action, selectors),
  );
}

function withPermit(
  action: ResolvedAction,
  permit: PermitWire,
  auth: PermitAuthorization,
  actionHash: Hex32 | (() => Hex32),
): SignedRequest {
  // One array push: the redactor recognises the signature if the venue ever echoes it back.
  registerRecentSecret(permit.signature);
  return requestOf(action, { permit, nonce: auth.nonce, deadline: auth.deadline }, actionHash);
}

/**
 * The request of each endpoint, its body in the spec's field order with the permit last (`permit`
 * on order actions, `permit_params` on account actions). Every value was range-checked when the
 * action was built (pre-trade checks) or signed (`signPermitNow`), so the body is marked checked.
 */
function requestOf(
  action: ResolvedAction,
  signed: PermitParts | undefined,
  actionHash: Hex32 | (() => Hex32),
): SignedRequest {
  const permit = signed?.permit;
  switch (action.action) {
    case 'placeOrder':
      return finish('placeOrder', placeOrderBody(action.order, permit), signed, actionHash, placeOrderJson);
    case 'cancelOrder': {
      const body: CancelOrderRequestWire = { market_id: action.market_id, order_id: action.order_id };
      if (permit !== undefined) body.permit = permit;
      return finish('cancelOrder', body, signed, actionHash);
    }
    case 'cancelAllOrders': {
      const body: CancelAllRequestWire = { market_id: action.market_id };
      if (permit !== undefined) body.permit = permit;
      return finish('cancelAllOrders', body, signed, actionHash);
    }
    case 'updateLeverage': {
      const body: LeverageRequestWire = { market_id: String(action.market_id), leverage: String(action.leverage) };
      if (permit !== undefined) body.permit_params = permit;
      return finish('updateLeverage', body, signed, actionHash);
    }
    case 'updateMarginMode': {
      const body: MarginModeRequestWire = { market_id: String(action.market_id), margin_mode: action.margin_mode };
      if (permit !== undefined) body.permit_params = permit;
      return finish('updateMarginMode', body, signed, actionHash);
    }
    case 'updateIsolatedMargin': {
      const body: IsolatedMarginRequestWire = { market_id: String(action.market_id), amount: action.amount.toString() };
      if (permit !== undefined) body.permit_params = permit;
      return finish('updateIsolatedMargin', body, signed, actionHash);
    }
  }
}

/**
 * One object per request (no spread on the order path); the nonce and deadline only with a permit.
 * A permit's action hash given as a function is worked out when the record's `actionHash` is first read.
 */
function finish<E extends Endpoint>(
  endpoint: E,
  body: ActionRequestBodies[E],
  signed: PermitParts | undefined,
  actionHash: Hex32 | (() => Hex32),
  writeJson?: (body: ActionRequestBodies[E]) => string,
): SignedRequestOf<E> {
  checkedBody(body, writeJson);
  if (typeof actionHash === 'function' && signed !== undefined)
    return new UnreadHashRequest(endpoint, body, signed, actionHash);
  const hash = typeof actionHash === 'function' ? actionHash() : actionHash;
  return signed === undefined
    ? { endpoint, body, actionHash: hash }
    : { endpoint, body, nonce: signed.nonce, deadline: signed.deadline, actionHash: hash };
}

function placeOrderBody(o: WireOrder, permit: PermitWire | undefined): PlaceOrderRequestWire {
  const body: PlaceOrderRequestWire = {
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
  // uint64 exceeds JSON numbers, hence a decimal string (venue-wire.md §2, place).
  if (o.client_order_id !== undefined) body.client_order_id = o.client_order_id.toString();
  if (o.ttl_units !== undefined) body.ttl_units = o.ttl_units;
  if (permit !== undefined) body.permit = permit;
  return body;
}

/**
 * `JSON.stringify` of a `placeOrderBody` body, written for its keys in the order that function sets
 * them (the two are kept side by side, and a property test holds the texts equal), the permit by
 * its own maker's writer: the transport writes the body with it instead of walking the object.
 * Strings go through `JSON.stringify`, so any text is escaped as it would be; the numbers are
 * range-checked integers, whose JSON is their `String`.
 */
function placeOrderJson(b: PlaceOrderRequestWire): string {
  let text =
    `{"market_id":${b.market_id},"size_steps":${b.size_steps},"price_ticks":${b.price_ticks},"side":${b.side}` +
    `,"post_only":${b.post_only},"reduce_only":${b.reduce_only},"stp_mode":${b.stp_mode}` +
    `,"order_type":${b.order_type},"time_in_force":${b.time_in_force}`;
  if (b.client_order_id !== undefined) text += `,"client_order_id":${JSON.stringify(b.client_order_id)}`;
  if (b.ttl_units !== undefined) text += `,"ttl_units":${b.ttl_units}`;
  return b.permit === undefined ? text + '}' : `${text},"permit":${permitJson(b.permit)}}`;
}
