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
 *
 * A builder may also hand over the body's JSON writer: it made the object, so it alone knows its
 * keys and their order, and its writer (a template for those keys) spares the generic
 * `JSON.stringify` walk on the order's way to the socket (about 4 µs between two frames). The
 * builder's tests hold the writer's text equal to `JSON.stringify` of the body.
 */
const checkedBodies = new WeakMap<object, JsonWriter | undefined>();

type JsonWriter = (body: object) => string;

/**
 * Marks `body` as built from checked values, written as `writeJson` writes it when given; it must
 * not be changed afterwards.
 */
export function checkedBody<B extends object>(body: B, writeJson?: (body: B) => string): B {
  checkedBodies.set(body, writeJson as JsonWriter | undefined);
  return body;
}

export function isCheckedBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && checkedBodies.has(body);
}

/** The JSON text of a request body: its builder's writer's, else `JSON.stringify`'s. */
export function bodyJson(body: unknown): string {
  const write = typeof body === 'object' && body !== null ? checkedBodies.get(body) : undefined;
  return write === undefined ? JSON.stringify(body) : write(body as object);
}
