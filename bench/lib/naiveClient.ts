import { privateKeyToAccount } from 'viem/accounts';
import type { Address } from '../../src/core/address.js';
import { PerpbotError } from '../../src/core/perpbotError.js';
import { placeOrderHash } from '../../src/protocol/actionHashes.js';
import type { Eip712Domain } from '../../src/protocol/domain.js';
import { OrderType, Side, StpMode, TimeInForce } from '../../src/protocol/enums.js';
import { priceToTicks, sizeToSteps } from '../../src/protocol/orderQuantities.js';
import { packOrderWord } from '../../src/protocol/orderWord.js';
import { MAX_NONCE_BITMAP_INDEX, permitWire } from '../../src/protocol/permit.js';
import { SPEC_SELECTORS } from '../../src/protocol/selectors.js';
import { parseHexSignature } from '../../src/protocol/signature.js';
import type { SigningContext } from '../../src/protocol/signingContext.js';
import { viemTypedData } from '../../src/protocol/viemTypedData.js';

/**
 * The pattern most published clients for this venue follow, as the baseline of the order-burst
 * figures: before every order read the nonce state, sign VerifyWitness with viem's
 * `signTypedData`, then POST and wait for the answer before the next order. Bodies and hashes come
 * from the protocol's pure functions; only the signing is viem's.
 */
export interface NaiveClientOptions {
  readonly restUrl: string;
  readonly account: Address;
  readonly signerKey: `0x${string}`;
  readonly context: SigningContext;
}

export interface NaiveOrder {
  readonly size: string;
  readonly price: string;
}

/** BTC/USDC grid of the simulator's market 1. */
const STEP_SIZE = '0.00001';
const STEP_PRICE = '0.1';

export class NaiveClientError extends PerpbotError {}

export class NaiveClient {
  private readonly viemAccount;
  private readonly domain: Eip712Domain;

  constructor(private readonly options: NaiveClientOptions) {
    this.viemAccount = privateKeyToAccount(options.signerKey);
    this.domain = options.context.domain;
  }

  /** Places one post-only GTC bid on market 1 and returns the venue's order id. */
  async placeBid(order: NaiveOrder): Promise<string> {
    const { account, restUrl, context } = this.options;
    const state = (await this.getJson(`/v1/nonce-state/${account}`)) as {
      nonce_anchor: string;
      current_bitmap_index: number;
    };
    // The next free bit of the current anchor; a full anchor rolls to the next one at bit 0.
    let anchor = BigInt(state.nonce_anchor);
    let bit = state.current_bitmap_index;
    if (bit > MAX_NONCE_BITMAP_INDEX) {
      anchor += 1n;
      bit = 0;
    }
    const fields = {
      market_id: 1,
      size_steps: Number(sizeToSteps(order.size, STEP_SIZE)),
      price_ticks: Number(priceToTicks(order.price, STEP_PRICE)),
      side: Side.Buy,
      post_only: true,
      reduce_only: false,
      stp_mode: StpMode.ExpireMaker,
      order_type: OrderType.Limit,
      time_in_force: TimeInForce.GTC,
    };
    const orderWord = packOrderWord({
      marketId: fields.market_id,
      sizeSteps: BigInt(fields.size_steps),
      priceTicks: BigInt(fields.price_ticks),
      side: fields.side,
      postOnly: fields.post_only,
      reduceOnly: fields.reduce_only,
      stpMode: fields.stp_mode,
      orderType: fields.order_type,
      timeInForce: fields.time_in_force,
    });
    const hash = placeOrderHash({ orderWord }, SPEC_SELECTORS);
    const deadline = Math.floor(Date.now() / 1000) + 60;
    const signatureHex = await this.viemAccount.signTypedData(
      viemTypedData(this.domain, 'VerifyWitness', {
        account,
        target: context.router,
        hash,
        nonceAnchor: anchor,
        nonceBitmap: bit,
        deadline,
      }),
    );
    const permit = permitWire(
      account,
      this.viemAccount.address,
      anchor,
      bit,
      deadline,
      parseHexSignature(signatureHex, 'signature'),
      'full65',
    );
    const answer = await fetch(`${restUrl}/v1/orders/place`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...fields, permit }),
    });
    const body = (await answer.json()) as { data?: { order_id?: string }; error?: { code?: string; message?: string } };
    const orderId = body.data?.order_id;
    if (!answer.ok || orderId === undefined) {
      throw new NaiveClientError(`naive place refused: ${body.error?.message ?? `HTTP ${answer.status}`}`, {
        code: 'NAIVE_PLACE_FAILED',
        details: { status: answer.status, venueCode: body.error?.code },
        hints: [
          'the naive client reads the nonce state before every order; a nonce error means another writer shares the account',
        ],
      });
    }
    return orderId;
  }

  private async getJson(path: string): Promise<unknown> {
    const answer = await fetch(`${this.options.restUrl}${path}`);
    const body = (await answer.json()) as { data?: unknown };
    if (!answer.ok || body.data === undefined) {
      throw new NaiveClientError(`naive read ${path} failed with HTTP ${answer.status}`, {
        code: 'NAIVE_READ_FAILED',
        details: { status: answer.status },
      });
    }
    return body.data;
  }
}
