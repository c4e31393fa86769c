import type { Address } from '../../../src/core/address.js';
import { buildSignedRequest } from '../../../src/engine/signing/signedRequest.js';
import type { ResolvedAction } from '../../../src/engine/checks/wireAction.js';
import type { WireOrder } from '../../../src/engine/checks/wireAction.js';
import type { SyncDigestSigner } from '../../../src/protocol/digestSigner.js';
import { OrderType, Side, StpMode, TimeInForce } from '../../../src/protocol/enums.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import type { SigningContext } from '../../../src/protocol/signingContext.js';
import { orderIdHex, wideOrderId } from '../../../src/sim/exchange/orderIds.js';
import type { LoadRequest } from './loadJob.js';
import type { PlannedRequest } from './requestPlan.js';

export interface PairSigner {
  readonly account: Address;
  readonly signer: SyncDigestSigner;
  readonly context: SigningContext;
  /** uint32 unix seconds, far enough ahead for the whole run. */
  readonly deadline: number;
}

/**
 * A post-only BTC bid at the minimum size far below the simulator's mark (65,000), so it rests
 * and every place costs the venue the same; 50 price levels. Steps and ticks of the simulator's
 * market 1 (step 0.00001, tick 0.1): 0.00015 BTC at 30,000-30,049.
 */
export function restingBidOrder(pair: number): WireOrder {
  return {
    market_id: 1,
    size_steps: 15,
    price_ticks: 300_000 + 10 * (pair % 50),
    side: Side.Buy,
    post_only: true,
    reduce_only: false,
    stp_mode: StpMode.ExpireMaker,
    order_type: OrderType.Limit,
    time_in_force: TimeInForce.GTC,
  };
}

/** The simulator's order id for the order numbered `sequence` (a bid: side bit 0). */
export function bidOrderIds(sequence: bigint): { readonly orderId: string; readonly restingOrderId: bigint } {
  return { orderId: orderIdHex(wideOrderId(sequence, 0)), restingOrderId: sequence };
}

/**
 * Signs every request of a slice, bodies exactly as the engine's REST client serialises them.
 * The cancel of pair p targets order number `firstSequence + p` (see SendScheduler).
 */
export async function signSlice(
  plan: readonly PlannedRequest[],
  who: PairSigner,
  firstSequence: bigint,
): Promise<LoadRequest[]> {
  const out: LoadRequest[] = [];
  for (const planned of plan) {
    let action: ResolvedAction;
    if (planned.kind === 'place') {
      const order = restingBidOrder(planned.pair);
      action = { action: 'placeOrder', order, size: '0.00015', price: String(order.price_ticks / 10) };
    } else {
      const ids = bidOrderIds(firstSequence + BigInt(planned.pair));
      action = { action: 'cancelOrder', market_id: 1, order_id: ids.orderId, resting_order_id: ids.restingOrderId };
    }
    const signed = await buildSignedRequest(
      action,
      {
        mode: 'permit',
        context: who.context,
        signer: who.signer,
        account: who.account,
        nonce: planned.nonce,
        deadline: who.deadline,
      },
      SPEC_SELECTORS,
    );
    out.push({
      kind: planned.kind,
      pair: planned.pair,
      anchor: Number(planned.nonce.anchor),
      path: planned.kind === 'place' ? '/v1/orders/place' : '/v1/orders/cancel',
      body: JSON.stringify(signed.body),
    });
  }
  return out;
}
