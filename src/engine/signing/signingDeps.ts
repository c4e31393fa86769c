import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SelectorTable } from '../../protocol/selectors.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { NonceAllocator } from '../nonces/nonceAllocator.js';
import type { EngineJournal } from '../tracking/engineJournal.js';

/** How actions are authorised: a permit signed by the session key with a nonce, or the session's JWT. */
export type AuthSource =
  | {
      readonly mode: 'permit';
      readonly context: () => SigningContext;
      readonly signer: SignerLike;
      readonly allocator: NonceAllocator;
    }
  | { readonly mode: 'jwt' };

/** What the sign stage needs: who signs, with which selectors and deadline, and where the pair is recorded. */
export interface SigningDeps {
  readonly account: Address;
  readonly selectors: SelectorTable;
  readonly auth: AuthSource;
  readonly clock: Clock;
  readonly journal: EngineJournal;
  /** Permit deadline in seconds from now. */
  readonly permitDeadlineSeconds: number;
}
