import type { Address } from '../../core/address.js';
import { normalizeDecimal } from '../../core/decimal.js';
import { checkRange, checkUint } from '../../core/integerRange.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import { signTypedStructAs, type SignatureEncoding } from '../../protocol/typedSignatures.js';
import type { PlaceTpslOrderMessage } from '../../protocol/typedStructs.js';
import type { CancelAllTpslRequestWire, CancelTpslRequestWire, PlaceTpslRequestWire } from '../schemas/restTpsl.js';
import {
  signedNumberOf,
  type StopPriceOptionName,
  type StopTypeName,
  type TpslOrderTypeName,
  type TpslSide,
  type TpslTif,
} from '../schemas/tpslNames.js';

/**
 * The three TP/SL request bodies, signed (venue-tpsl.md): PlaceTpslOrder, CancelTpslOrder and
 * CancelAllTpslOrders by the session signer, over exactly the values sent. Every value is checked
 * before anything is signed; decimals are sent (and signed) in their canonical form ("0.0150" goes
 * as "0.015"), since the signature covers the text. No nonce: the deadline is the only replay
 * protection, so a body resent as it is names the same order.
 */

/** A TP/SL as a caller describes it. */
export interface TpslOrderSpec {
  readonly account: Address;
  readonly marketId: number;
  /** The side of the execution: SELL closes a long, BUY a short. */
  readonly side: TpslSide;
  /** Decimal size; "0" only with `sizePercentBps` (a share of the position). */
  readonly size: string;
  readonly stopType: StopTypeName;
  /** The trigger price (decimal). */
  readonly stopPrice: string;
  /** Default MARKET. */
  readonly orderType?: TpslOrderTypeName;
  /** LIMIT only: the execution's limit price. A MARKET order sends "0". */
  readonly limitPrice?: string;
  /** What the trigger watches. */
  readonly stopPriceOption: StopPriceOptionName;
  /** Default IOC for MARKET, GTC for LIMIT. */
  readonly tif?: TpslTif;
  /** uint32 unix seconds. */
  readonly deadline: number;
  /** 1..10000: signs the variant struct with `sizePercentBps` and sends `size_percent_bps` (disputed). */
  readonly sizePercentBps?: number;
}

/** The default: base64 of the 65-byte form, as TS sends it (the simulator takes the others too). */
export const TPSL_SIGNATURE_ENCODING: SignatureEncoding = 'base64Full65';

type Signer = SignerLike & { readonly address: Address };

export async function signedPlaceTpslBody(
  context: SigningContext,
  signer: Signer,
  spec: TpslOrderSpec,
  encoding: SignatureEncoding = TPSL_SIGNATURE_ENCODING,
): Promise<PlaceTpslRequestWire> {
  const fields = checkedFields(spec);
  const message: PlaceTpslOrderMessage = {
    account: spec.account,
    marketId: spec.marketId,
    side: signedNumberOf(spec.side),
    size: fields.size,
    stopType: signedNumberOf(spec.stopType),
    stopPrice: fields.stopPrice,
    limitPrice: fields.limitPrice,
    orderType: signedNumberOf(fields.orderType),
    stopPriceOption: signedNumberOf(spec.stopPriceOption),
    tif: signedNumberOf(fields.tif),
    deadline: spec.deadline,
  };
  const signature =
    spec.sizePercentBps === undefined
      ? await signTypedStructAs(context, signer, 'PlaceTpslOrder', message, encoding)
      : await signTypedStructAs(
          context,
          signer,
          'PlaceTpslOrderSized',
          { ...message, sizePercentBps: spec.sizePercentBps },
          encoding,
        );
  return {
    account: spec.account,
    market_id: String(spec.marketId),
    side: spec.side,
    size: fields.size,
    stop_type: spec.stopType,
    order_type: fields.orderType,
    stop_price: fields.stopPrice,
    limit_price: fields.limitPrice,
    stop_price_option: spec.stopPriceOption,
    tif: fields.tif,
    signer: signer.address,
    signature,
    deadline: spec.deadline,
    ...(spec.sizePercentBps === undefined ? {} : { size_percent_bps: spec.sizePercentBps }),
  };
}

interface CheckedFields {
  readonly size: string;
  readonly stopPrice: string;
  readonly limitPrice: string;
  readonly orderType: TpslOrderTypeName;
  readonly tif: TpslTif;
}

/** The spec's values as they will be signed and sent; throws `InvalidValueError` naming the field. */
function checkedFields(spec: TpslOrderSpec): CheckedFields {
  checkRange(spec.marketId, 1n, 65_535n, 'marketId');
  checkUint(spec.deadline, 32, 'deadline');
  if (spec.sizePercentBps !== undefined) checkRange(spec.sizePercentBps, 1n, 10_000n, 'sizePercentBps');
  const size = normalizeDecimal(spec.size, 'size');
  if (size.startsWith('-') || (size === '0' && spec.sizePercentBps === undefined))
    throw new InvalidValueError('size', spec.size, 'a positive decimal ("0" only with sizePercentBps)');
  const stopPrice = positive(spec.stopPrice, 'stopPrice');
  const orderType = spec.orderType ?? 'MARKET';
  const limitPrice = orderType === 'LIMIT' ? positive(spec.limitPrice, 'limitPrice') : marketLimitPrice(spec);
  return { size, stopPrice, limitPrice, orderType, tif: spec.tif ?? (orderType === 'MARKET' ? 'IOC' : 'GTC') };
}

function positive(value: string | undefined, field: string): string {
  const text = normalizeDecimal(value, field);
  if (text.startsWith('-') || text === '0') throw new InvalidValueError(field, value, 'a positive decimal');
  return text;
}

/** A market execution signs and sends limit price "0" (venue-tpsl.md); another value is a mistake. */
function marketLimitPrice(spec: TpslOrderSpec): string {
  if (spec.limitPrice !== undefined && normalizeDecimal(spec.limitPrice, 'limitPrice') !== '0')
    throw new InvalidValueError('limitPrice', spec.limitPrice, '"0" or nothing for a MARKET order (LIMIT takes one)');
  return '0';
}

export async function signedCancelTpslBody(
  context: SigningContext,
  signer: Signer,
  cancel: { readonly account: Address; readonly orderId: string; readonly deadline: number },
  encoding: SignatureEncoding = TPSL_SIGNATURE_ENCODING,
): Promise<CancelTpslRequestWire> {
  checkUint(cancel.deadline, 32, 'deadline');
  if (cancel.orderId === '') throw new InvalidValueError('orderId', cancel.orderId, 'the id the place answer gave');
  const signature = await signTypedStructAs(context, signer, 'CancelTpslOrder', cancel, encoding);
  return {
    order_id: cancel.orderId,
    account: cancel.account,
    signer: signer.address,
    signature,
    deadline: cancel.deadline,
  };
}

export async function signedCancelAllTpslBody(
  context: SigningContext,
  signer: Signer,
  cancel: { readonly account: Address; readonly marketId: number; readonly deadline: number },
  encoding: SignatureEncoding = TPSL_SIGNATURE_ENCODING,
): Promise<CancelAllTpslRequestWire> {
  checkRange(cancel.marketId, 1n, 65_535n, 'marketId');
  checkUint(cancel.deadline, 32, 'deadline');
  const signature = await signTypedStructAs(context, signer, 'CancelAllTpslOrders', cancel, encoding);
  return {
    account: cancel.account,
    market_id: String(cancel.marketId),
    signer: signer.address,
    deadline: cancel.deadline,
    signature,
  };
}
