import type { IsolatedMarginRequestWire, LeverageRequestWire, MarginModeRequestWire } from '../schemas/restAccount.js';
import type { CancelAllRequestWire, CancelOrderRequestWire, PlaceOrderRequestWire } from '../schemas/restOrders.js';

/**
 * The request body of each signed trading action, keyed by the action's name (the engine's
 * endpoint names), so that a signed request is a union discriminated by its endpoint and a switch
 * on it narrows the body to that endpoint's type.
 */
export interface ActionRequestBodies {
  readonly placeOrder: PlaceOrderRequestWire;
  readonly cancelOrder: CancelOrderRequestWire;
  readonly cancelAllOrders: CancelAllRequestWire;
  readonly updateLeverage: LeverageRequestWire;
  readonly updateMarginMode: MarginModeRequestWire;
  readonly updateIsolatedMargin: IsolatedMarginRequestWire;
}

/**
 * Bodies whose builder range-checked every value before it was signed (the engine's signed
 * requests): the transport sends them as they are. A second parse of the same data cost an order
 * about 15 µs on its way to the socket and could only agree. Every other body (a caller with its
 * own object) is still checked against its endpoint's schema before it leaves.
 */
const checkedBodies = new WeakSet<object>();

/** Marks `body` as built from checked values; it must not be changed afterwards. */
export function checkedBody<B extends object>(body: B): B {
  checkedBodies.add(body);
  return body;
}

export function isCheckedBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && checkedBodies.has(body);
}
