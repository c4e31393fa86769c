import { systemClock, unixSeconds } from '../../../src/core/clock.js';
import type { NoncePair } from '../../../src/engine/nonces/noncePair.js';
import { venueSender } from '../../../src/engine/sending/actionSender.js';
import { buildSignedRequest } from '../../../src/engine/signing/signedRequest.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import type { SimAccount } from './simAccount.js';

/** Another client on the same account: signs a cancel-all of `marketId` with a pair of its choosing and sends it. */
export async function foreignCancelAll(who: SimAccount, nonce: NoncePair, marketId = 1): Promise<void> {
  const request = await buildSignedRequest(
    { action: 'cancelAllOrders', market_id: marketId },
    {
      mode: 'permit',
      context: who.context,
      signer: who.signer,
      account: who.account,
      nonce,
      deadline: unixSeconds(systemClock) + 60,
    },
    SPEC_SELECTORS,
  );
  await venueSender(who.rest).send(request);
}

/**
 * Another process sharing the account (another nonce slot) lands two actions, in market 2 so
 * they touch nothing of the engine's, and moves the venue's anchor two steps: past the pair the
 * engine signed with (current + 1 when it signed).
 */
export async function anotherProcessRollsTheAnchorTwice(who: SimAccount): Promise<void> {
  const anchor = BigInt((await who.rest.nonceState(who.account)).nonce_anchor);
  await foreignCancelAll(who, { anchor: anchor + 1n, bit: 207 }, 2);
  await foreignCancelAll(who, { anchor: anchor + 2n, bit: 207 }, 2);
}
