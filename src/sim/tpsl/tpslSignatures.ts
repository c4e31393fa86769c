import type { Address } from '../../core/address.js';
import { sameAddress } from '../../core/address.js';
import { toHex } from '../../protocol/abiWords.js';
import { recoverAddress, type Signature } from '../../protocol/signature.js';
import { typedDigest, type SigningContext } from '../../protocol/signingContext.js';
import type { PlaceTpslOrderMessage } from '../../protocol/typedStructs.js';
import type { PlaceTpslBody } from '../../venue/schemas/restTpslAccepted.js';
import { signedNumberOf } from '../../venue/schemas/tpslNames.js';

/** Who signed a TP/SL request, and the digest that identifies the signed request. */
export interface TpslSignedBy {
  readonly recovered: Address;
  readonly digest: string;
}

/**
 * The signer of a place body. The sources disagree on what is signed (docs/spec-gaps/real-wire.md
 * "TP/SL orders: the disputed readings"): the eleven-field struct or the one with
 * `sizePercentBps` (tried first when the body carries `size_percent_bps`), and the stop price
 * option as DOC numbers it or the reverse. The first reading that recovers to the body's `signer`
 * wins; when none does, the documented reading's recovery is what the refusal names.
 */
export function placeTpslSignedBy(context: SigningContext, body: PlaceTpslBody, signature: Signature): TpslSignedBy {
  const option = signedNumberOf(body.stop_price_option);
  const message: PlaceTpslOrderMessage = {
    account: body.account,
    marketId: BigInt(body.market_id),
    side: signedNumberOf(body.side),
    size: body.size,
    stopType: signedNumberOf(body.stop_type),
    stopPrice: body.stop_price,
    limitPrice: body.limit_price,
    orderType: signedNumberOf(body.order_type),
    stopPriceOption: option,
    tif: signedNumberOf(body.tif),
    deadline: body.deadline,
  };
  const digests: Uint8Array[] = [];
  for (const stopPriceOption of [option, 1 - option]) {
    const read = { ...message, stopPriceOption };
    if (body.size_percent_bps !== undefined)
      digests.push(typedDigest(context, 'PlaceTpslOrderSized', { ...read, sizePercentBps: body.size_percent_bps }));
    digests.push(typedDigest(context, 'PlaceTpslOrder', read));
  }
  let first: TpslSignedBy | undefined;
  for (const digest of digests) {
    const signedBy = { recovered: recoverAddress(digest, signature), digest: toHex(digest) };
    if (sameAddress(signedBy.recovered, body.signer)) return signedBy;
    first ??= signedBy;
  }
  return first as TpslSignedBy;
}

/** The signer of a cancel (CancelTpslOrder) or a cancel-all (CancelAllTpslOrders). */
export function cancelTpslSignedBy(
  context: SigningContext,
  request:
    | { readonly kind: 'one'; readonly account: Address; readonly orderId: string; readonly deadline: number }
    | { readonly kind: 'all'; readonly account: Address; readonly marketId: string; readonly deadline: number },
  signature: Signature,
): TpslSignedBy {
  const digest =
    request.kind === 'one'
      ? typedDigest(context, 'CancelTpslOrder', request)
      : typedDigest(context, 'CancelAllTpslOrders', { ...request, marketId: BigInt(request.marketId) });
  return { recovered: recoverAddress(digest, signature), digest: toHex(digest) };
}
