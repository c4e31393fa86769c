import type { Hex32 } from '../../protocol/actionHashes.js';
import type { PermitWire } from '../../protocol/permit.js';
import type { ActionRequestBodies } from '../../venue/rest/actionBodies.js';
import type { ResolvedAction } from '../checks/wireAction.js';
import type { NoncePair } from '../nonces/noncePair.js';

/*
 * The shapes of a signed request, apart from the signing (`signedRequest.ts`), so that the request
 * classes it makes (`unreadHashRequest.ts`) import them without importing the signing back.
 */

export type Endpoint = ResolvedAction['action'];

/** The exact body for one endpoint, and what was used to authorise it (to report its fate). */
export interface SignedRequestOf<E extends Endpoint> {
  readonly endpoint: E;
  /** Built by `requestOf` from range-checked values and marked `checkedBody`: sent without a second parse. */
  readonly body: Readonly<ActionRequestBodies[E]>;
  /** The permit's nonce pair; absent on the JWT path. */
  readonly nonce?: NoncePair;
  /** The permit's deadline (uint32 unix seconds); absent on the JWT path. */
  readonly deadline?: number;
  readonly actionHash: Hex32;
}

/** The permit and what it used, on a request authorised by a permit. */
export interface PermitParts {
  readonly permit: PermitWire;
  readonly nonce: NoncePair;
  readonly deadline: number;
}
