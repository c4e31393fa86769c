import type { Address } from '../../core/address.js';
import { unixSeconds, type Clock } from '../../core/clock.js';
import { checkRange } from '../../core/integerRange.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { SignatureEncoding } from '../../protocol/typedSignatures.js';
import type { CancelTpslResult, PlaceTpslRequestWire, PlaceTpslResult, TpslOrderPage } from '../schemas/restTpsl.js';
import type { RestCallOptions, RestClient } from './restClient.js';
import type { TpslOrdersQuery } from './tpslEndpoints.js';
import { readAllTpslOrders, type TpslOrdersSnapshot, type TpslOrdersSnapshotOptions } from './tpslPages.js';
import {
  signedCancelAllTpslBody,
  signedCancelTpslBody,
  signedPlaceTpslBody,
  TPSL_SIGNATURE_ENCODING,
  type TpslOrderSpec,
} from './tpslRequests.js';

export interface TpslClientOptions {
  readonly rest: Pick<RestClient, 'placeTpslOrder' | 'cancelTpslOrder' | 'cancelAllTpslOrders' | 'tpslOrders'>;
  readonly context: SigningContext;
  /** The session signer (the key that signs permits): it signs every TP/SL action. */
  readonly signer: SignerLike & { readonly address: Address };
  readonly account: Address;
  /** Deadlines are read from it. */
  readonly clock: Clock;
  /** A signed action's deadline is now + this many seconds; default 3600 (TS's default). */
  readonly validForSeconds?: number;
  readonly encoding?: SignatureEncoding;
}

export type TpslOrderRequest = Omit<TpslOrderSpec, 'account' | 'deadline'>;

/**
 * One account's TP/SL orders on the venue: signs with the session signer (deadline now +
 * `validForSeconds`) and sends. The venue keeps and executes them when the bot is gone, spending
 * the OperatorHub budget granted by approve-single (`approveOperator` in
 * src/engine/account/approveOperator.ts). A caller with its own resend policy signs with
 * `placeBody` and sends the same body again (no nonce: the venue refuses a second copy).
 */
export class TpslClient {
  private readonly validForSeconds: number;
  private readonly encoding: SignatureEncoding;

  constructor(private readonly options: TpslClientOptions) {
    this.validForSeconds = Number(checkRange(options.validForSeconds ?? 3600, 1n, 86_400n * 365n, 'validForSeconds'));
    this.encoding = options.encoding ?? TPSL_SIGNATURE_ENCODING;
  }

  /** The signed body of a TP/SL, ready to send (and to resend as it is). */
  placeBody(order: TpslOrderRequest): Promise<PlaceTpslRequestWire> {
    const { context, signer, account } = this.options;
    return signedPlaceTpslBody(context, signer, { ...order, account, deadline: this.deadline() }, this.encoding);
  }

  async place(order: TpslOrderRequest, call?: RestCallOptions): Promise<PlaceTpslResult> {
    return this.options.rest.placeTpslOrder(await this.placeBody(order), call);
  }

  async cancel(orderId: string, call?: RestCallOptions): Promise<CancelTpslResult> {
    const { context, signer, account } = this.options;
    const body = await signedCancelTpslBody(
      context,
      signer,
      { account, orderId, deadline: this.deadline() },
      this.encoding,
    );
    return this.options.rest.cancelTpslOrder(body, call);
  }

  /** The market's ACCEPTED orders; TRIGGERED ones are executing and stay. */
  async cancelAll(marketId: number, call?: RestCallOptions): Promise<CancelTpslResult> {
    const { context, signer, account } = this.options;
    const deadline = this.deadline();
    const body = await signedCancelAllTpslBody(context, signer, { account, marketId, deadline }, this.encoding);
    return this.options.rest.cancelAllTpslOrders(body, call);
  }

  /** One page; both stop types and every status unless the query narrows it. */
  list(query: Omit<TpslOrdersQuery, 'account'> = {}, call?: RestCallOptions): Promise<TpslOrderPage> {
    return this.options.rest.tpslOrders({ ...query, account: this.options.account }, call);
  }

  /** Every page, checked for consistency (`readAllTpslOrders`). */
  listAll(
    query: Omit<TpslOrdersQuery, 'account' | 'page' | 'limit'> = {},
    options?: TpslOrdersSnapshotOptions,
  ): Promise<TpslOrdersSnapshot> {
    return readAllTpslOrders(this.options.rest, { ...query, account: this.options.account }, options);
  }

  private deadline(): number {
    return unixSeconds(this.options.clock) + this.validForSeconds;
  }
}
