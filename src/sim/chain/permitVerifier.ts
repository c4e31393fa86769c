import type { Address } from '../../core/address.js';
import { sameAddress } from '../../core/address.js';
import type { Hex32 } from '../../protocol/actionHashes.js';
import { permitDigest } from '../../protocol/permit.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { Permit } from '../../venue/schemas/restPermit.js';
import { invalidArgument, revertedWith } from '../simRefusal.js';
import { checkIndex, type NonceBook } from './nonceBook.js';
import { decodePermitSignature, recoverSigner, type PermitSignature } from './permitSignature.js';
import type { SignerRegistry } from './signerRegistry.js';

/** The contract-call names that appear in revert texts, one per permit-authorised endpoint. */
export type PermitAction =
  'PlaceOrder' | 'CancelOrder' | 'CancelAllOrders' | 'UpdateLeverage' | 'UpdateMarginMode' | 'UpdateIsolatedMargin';

/** The actions whose permit comes as `permit_params` (account settings). */
const ACCOUNT_ACTIONS: ReadonlySet<PermitAction> = new Set([
  'UpdateLeverage',
  'UpdateMarginMode',
  'UpdateIsolatedMargin',
]);

export interface PermitCheck {
  readonly action: PermitAction;
  readonly permit: Permit;
  /**
   * Recomputed from the sent body: a body that differs from what was signed changes it. As hex or
   * its 32 bytes; worked out only when a signature is recovered (a trusted account's is not).
   */
  readonly actionHash: () => Hex32 | Uint8Array;
  readonly nowSeconds: number;
}

/**
 * Verifies a permit the way the router contract would, in its order: deadline, anchor window,
 * bit index, then the VerifyWitness signature (target = the router) which must recover to
 * `permit.signer` and that signer must be Active for `permit.account`, then reuse. Throws the
 * venue's text; consumes nothing (the caller consumes once the action has gone through).
 */
export function verifyPermit(
  context: SigningContext,
  nonces: NonceBook,
  signers: SignerRegistry,
  check: PermitCheck,
): void {
  const { permit, action } = check;
  if (permit.deadline < check.nowSeconds) {
    throw invalidArgument(`permit deadline expired (deadline ${permit.deadline}, now ${check.nowSeconds})`);
  }
  const anchorProblem = nonces.checkAnchor(permit.account, permit.nonce_anchor, action);
  if (anchorProblem !== undefined) throw anchorProblem;
  const indexProblem = checkIndex(permit.nonce_bitmap_index, action);
  if (indexProblem !== undefined) throw indexProblem;

  const signature = decodePermitSignature(permit.signature);
  // A trusted account's permits are taken as signed by the signer they name: nothing is
  // recovered, so the action's hash is not worked out unless the signer turns out not Active.
  const actionHash = signers.trustsSignaturesOf(permit.account) ? undefined : check.actionHash();
  const recovered =
    actionHash === undefined
      ? permit.signer
      : recoverWitness(context, permit, actionHash, permit.nonce_anchor, signature);
  const authorised = sameAddress(recovered, permit.signer) && signers.isActive(permit.account, recovered);
  if (!authorised) {
    const hash = actionHash ?? check.actionHash();
    if (signedOtherAnchor(context, nonces, signers, permit, hash, signature))
      throw revertedWith(action, 'InvalidNonceAnchor');
    // The live venue checks the account actions' permit_params before the chain and words a
    // signature that recovers to another key so (venue-wire.md §4.14); the client reads it as
    // SignerNotAuthorized all the same.
    if (ACCOUNT_ACTIONS.has(action) && !sameAddress(recovered, permit.signer)) {
      throw invalidArgument(`permit signature mismatch: expected ${permit.signer}, got ${recovered}`);
    }
    throw revertedWith(action, `SignerNotAuthorized(${recovered})`);
  }
  const reuse = nonces.check(permit.account, permit.nonce_anchor, permit.nonce_bitmap_index, action);
  if (reuse !== undefined) throw reuse;
}

function recoverWitness(
  context: SigningContext,
  permit: Permit,
  actionHash: Hex32 | Uint8Array,
  anchor: bigint,
  signature: PermitSignature,
): Address {
  const digest = permitDigest(context, {
    account: permit.account,
    actionHash,
    nonceAnchor: anchor,
    nonceBitmap: permit.nonce_bitmap_index,
    deadline: permit.deadline,
  });
  return recoverSigner(digest, signature, permit.signer);
}

/**
 * The spec names InvalidNonceAnchor when the signed anchor differs from the sent one. Only the
 * two anchors the contract would accept can be meant, so on a failed recovery both are tried:
 * if one recovers to the Active signer, the client signed that anchor and sent another.
 */
function signedOtherAnchor(
  context: SigningContext,
  nonces: NonceBook,
  signers: SignerRegistry,
  permit: Permit,
  actionHash: Hex32 | Uint8Array,
  signature: PermitSignature,
): boolean {
  const current = nonces.state(permit.account).anchor;
  for (const anchor of [current, current + 1n]) {
    if (anchor === permit.nonce_anchor) continue;
    const recovered = recoverWitness(context, permit, actionHash, anchor, signature);
    if (sameAddress(recovered, permit.signer) && signers.isActive(permit.account, recovered)) return true;
  }
  return false;
}
