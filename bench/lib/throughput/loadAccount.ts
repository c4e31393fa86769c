import { cancelOrderRequestSchema, type CancelOrderRequestWire } from '../../../src/venue/schemas/restOrders.js';
import type { Address } from '../../../src/core/address.js';
import { PerpbotError } from '../../../src/core/perpbotError.js';
import type { NoncePair } from '../../../src/engine/nonces/noncePair.js';
import { buildSignedRequest } from '../../../src/engine/signing/signedRequest.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import { wideFromOrderId } from '../../../src/sim/exchange/orderIds.js';
import { benchAccountAt } from '../simAccount.js';
import { planPairs } from './requestPlan.js';
import { restingBidOrder, signSlice, type PairSigner } from './signedPairs.js';

/** A funded, registered account ready for pre-signed pairs, and where its first slice starts. */
export interface LoadAccount {
  readonly signer: PairSigner;
  /** The first nonce the first slice may use. */
  readonly nonce: NoncePair;
  /** The number the simulator will give the next order placed. */
  readonly firstSequence: bigint;
}

/**
 * Sets up an account on a simulator with no automatic blocks, then places and cancels one probe
 * order: its id tells the number the next order will get (orders are numbered as the simulator
 * processes them, and with no blocks no maker places any).
 */
export async function prepareLoadAccount(
  restUrl: string,
  registerNow?: (account: Address) => void,
): Promise<LoadAccount> {
  const who = await benchAccountAt(restUrl, registerNow);
  const signer: PairSigner = {
    account: who.account,
    signer: who.signer,
    context: who.context,
    deadline: Math.floor(Date.now() / 1000) + 3600,
  };
  const state = await who.rest.nonceState(who.account);
  // Spec "Nonces": start at the next anchor, bit 0, clear of anything setup used.
  const probe = planPairs(1, 0, { anchor: BigInt(state.nonce_anchor) + 1n, bit: 0 });
  const [placeNonce, cancelPlan] = [probe.requests[0]!.nonce, probe.requests[1]!];
  const place = await buildSignedRequest(
    { action: 'placeOrder', order: restingBidOrder(0), size: '0.00015', price: '30000' },
    {
      mode: 'permit',
      context: signer.context,
      signer: signer.signer,
      account: signer.account,
      nonce: placeNonce,
      deadline: signer.deadline,
    },
    SPEC_SELECTORS,
  );
  const placed = await who.rest.placeOrder(place.body);
  const wide = wideFromOrderId(placed.order_id);
  if (wide === undefined)
    throw new PerpbotError(`the simulator answered an order id the bench cannot read: ${placed.order_id}`, {
      code: 'BENCH_ORDER_ID',
    });
  const probeSequence = wide >> 1n;
  const [cancel] = await signSlice([cancelPlan], signer, probeSequence);
  // The body was signed as text for the load run; checked back against its schema, not cast.
  const body: unknown = JSON.parse(cancel!.body);
  if (!isCancelBody(body))
    throw new PerpbotError('the bench signed a cancel body its schema refuses', { code: 'BENCH_ORDER_ID' });
  await who.rest.cancelOrder(body);
  return { signer, nonce: probe.next, firstSequence: probeSequence + 1n };
}

function isCancelBody(body: unknown): body is CancelOrderRequestWire {
  return cancelOrderRequestSchema.safeParse(body).success;
}
