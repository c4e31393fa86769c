import type { RefusedActions } from '../../../../sim/rest/refusedActions.js';
import { firstFew, type InvariantResult } from './invariant.js';

/**
 * No signed action was refused as malformed, counted by the venue: a SignerNotAuthorized revert
 * means a signature recovered to someone else (wrong type string, width or domain); an
 * InvalidArgument answer means a body the venue could not take.
 */
export function malformedRequests(refused: RefusedActions): InvariantResult {
  const total = refused.signerNotAuthorized + refused.invalidArgument;
  return {
    id: 'malformed_requests',
    title: 'signed requests refused as malformed',
    ok: total === 0,
    measured: `${refused.signerNotAuthorized} SignerNotAuthorized, ${refused.invalidArgument} InvalidArgument`,
    ...(total === 0 ? {} : { detail: firstFew([...refused.samples], 2) }),
    data: {
      signerNotAuthorized: refused.signerNotAuthorized,
      invalidArgument: refused.invalidArgument,
      samples: refused.samples,
    },
  };
}
