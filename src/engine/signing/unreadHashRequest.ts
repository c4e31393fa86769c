import type { Hex32 } from '../../protocol/actionHashes.js';
import type { ActionRequestBodies } from '../../venue/rest/actionBodies.js';
import type { NoncePair } from '../nonces/noncePair.js';
import type { Endpoint, PermitParts, SignedRequestOf } from './signedRequestOf.js';

/**
 * A permit's request whose action hash is worked out when first read. A class, its hash a getter
 * of its prototype: an own accessor (`Object.defineProperty` on the record) cost about 6 µs an
 * action in a replay, against a plain object's shape.
 */
export class UnreadHashRequest<E extends Endpoint> implements SignedRequestOf<E> {
  readonly nonce: NoncePair;
  readonly deadline: number;
  readonly #hashOf: () => Hex32;
  #hash: Hex32 | undefined;

  constructor(
    readonly endpoint: E,
    readonly body: ActionRequestBodies[E],
    signed: PermitParts,
    hashOf: () => Hex32,
  ) {
    this.nonce = signed.nonce;
    this.deadline = signed.deadline;
    this.#hashOf = hashOf;
  }

  get actionHash(): Hex32 {
    return (this.#hash ??= this.#hashOf());
  }
}
