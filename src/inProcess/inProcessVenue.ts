import { parseAddress, type Address } from '../core/address.js';
import { countUnits } from '../core/decimal.js';
import { PerpbotError } from '../core/perpbotError.js';
import type { Side } from '../engine/intents/intents.js';
import type { MarketDefinition } from '../sim/exchange/markets.js';
import type { OrderRecord, PlaceOrderParams } from '../sim/exchange/exchangeRecords.js';
import { isExchangeRefusal } from '../sim/exchange/exchangeRefusal.js';
import { createSimAnswerer, type SimRequestAnswerer } from '../sim/rest/simRestServer.js';
import type { SimControls } from '../sim/simContext.js';
import { createSimControls } from '../sim/simControls.js';
import { resolveSimOptions } from '../sim/simOptions.js';
import { SimRuntime } from '../sim/simRuntime.js';
import type { VirtualTime } from './virtualTime.js';

export interface InProcessVenueOptions {
  readonly time: VirtualTime;
  readonly markets: readonly MarketDefinition[];
  /** Fees in basis points of notional (the simulator's defaults: maker 2, taker 5). */
  readonly feesBps?: { readonly maker: number; readonly taker: number };
  /** REST requests per 10 s per IP (the venue's 500); 0: no limit. */
  readonly restRequestsPer10s: number;
  /** Number orders, fills and trades from 1 (a replay's ids are the same every run); default random bases. */
  readonly deterministicIds?: boolean;
  readonly onError: (error: unknown) => void;
}

/** A level of a scripted book side: `[price, quantity]`. */
export type ScriptedLevel = readonly [price: string, quantity: string];

/**
 * The accounts that script the market: `book` rests the scripted levels, `flow` the liquidity a
 * scripted trade prints against, `taker` sends the trades. None is the bot's.
 */
const SCRIPT_ACCOUNTS = {
  book: parseAddress('0x00000000000000000000000000000000000b00c0', 'kit book account'),
  flow: parseAddress('0x00000000000000000000000000000000000f1000', 'kit flow account'),
  taker: parseAddress('0x0000000000000000000000000000000000074c00', 'kit taker account'),
} as const;

/** Deep enough that scripting never runs out of margin. */
const SCRIPT_DEPOSIT = '1000000000000';

/**
 * The simulator's runtime in virtual time, for the test kit: its exchange core (matching, fees,
 * margin, refusals), REST handling and events, with the synthetic makers and the oracle's random
 * walk off so only what a test scripts moves the market. Scripting goes through the exchange as
 * other accounts' orders: a scripted book is an account's resting orders, a scripted trade a
 * taker's order, so the bot's orders match exactly as they would on the simulator.
 */
export class InProcessVenue {
  readonly runtime: SimRuntime;
  readonly controls: SimControls;
  /** The simulator's REST handling, called in-process (see `simSender`). */
  readonly answer: SimRequestAnswerer;

  constructor(private readonly o: InProcessVenueOptions) {
    const options = resolveSimOptions({
      seed: 1,
      blockMs: 0,
      registrationLagMs: 0,
      markets: o.markets,
      restRequestsPer10s: o.restRequestsPer10s,
      deterministicIds: o.deterministicIds === true,
    });
    this.runtime = new SimRuntime(options, o.time, {
      makers: false,
      oracleVolatilityPpm: 0,
      ...(o.feesBps === undefined
        ? {}
        : { makerFeeBps: BigInt(o.feesBps.maker), takerFeeBps: BigInt(o.feesBps.taker) }),
    });
    this.controls = createSimControls(this.runtime, () => undefined);
    this.runtime.attachControls(this.controls);
    this.answer = createSimAnswerer(this.runtime, o.onError);
    for (const account of Object.values(SCRIPT_ACCOUNTS)) {
      this.runtime.recordAction(this.runtime.exchange.deposit(account, SCRIPT_DEPOSIT).events);
      this.controls.registerNow(account);
    }
  }

  /**
   * The simulator takes `account`'s permits as signed by the signer they name without recovering
   * each signature (about 3% of a replay's CPU): for a replay, whose bot signs with a key the
   * simulator registered itself. Every other check of a permit still runs (docs/spec-gaps/simulator.md).
   */
  trustSignaturesOf(account: Address): void {
    this.runtime.chainState.signers.trustSignaturesOf(account);
  }

  /** Mines one block every `blockMs` of virtual time until `signal` aborts (the oracle frame goes out with each). */
  async produceBlocks(blockMs: number, signal: AbortSignal): Promise<void> {
    for (;;) {
      try {
        await this.o.time.sleep(blockMs, signal);
      } catch {
        return;
      }
      this.runtime.mineBlock();
    }
  }

  /**
   * Judges the TP/SL orders every `everyMs` of virtual time until `signal` aborts, between the
   * blocks (a replay mines one only at each recorded oracle frame): an execution falls due after
   * its lag, not at the next frame. Nothing is stamped while nothing fires.
   */
  async watchTpsl(everyMs: number, signal: AbortSignal): Promise<void> {
    for (;;) {
      try {
        await this.o.time.sleep(everyMs, signal);
      } catch {
        return;
      }
      this.runtime.watchTpsl();
    }
  }

  /** The oracle's mark and index move to `price`; a block carries it to the oracle channel. */
  mark(marketId: number, price: string): void {
    this.controls.setMark(marketId, price);
    this.runtime.mineBlock();
  }

  /**
   * The book account's orders become the scripted levels: its earlier ones are cancelled, then each
   * level rests as a GTC limit order. A level that reaches a resting order of the bot trades with
   * it, at the bot's price, as on the venue.
   */
  book(marketId: number, bids: readonly ScriptedLevel[], asks: readonly ScriptedLevel[]): void {
    this.cancelAll(SCRIPT_ACCOUNTS.book, marketId);
    for (const [price, size] of bids) this.place(SCRIPT_ACCOUNTS.book, marketId, 'buy', price, size, 'GTC');
    for (const [price, size] of asks) this.place(SCRIPT_ACCOUNTS.book, marketId, 'sell', price, size, 'GTC');
  }

  /**
   * A public trade of `size` at up to `price`: the flow account rests `size` at `price` on the
   * maker side, post-only (so the trade prints even on an empty book, and the flow itself never
   * takes a resting order), then the taker sends an IOC order for
   * `size` at `price`. It matches in price-time priority as on the venue: better-priced orders
   * (the bot's among them) first, then those at `price` in the order they arrived.
   */
  trade(marketId: number, price: string, size: string, aggressorSide: Side): void {
    const makerSide: Side = aggressorSide === 'buy' ? 'sell' : 'buy';
    // Post-only: on a book already crossing `price` it is refused and the taker meets that book alone.
    this.tryPlace(() => this.place(SCRIPT_ACCOUNTS.flow, marketId, makerSide, price, size, 'GTC', true));
    this.place(SCRIPT_ACCOUNTS.taker, marketId, aggressorSide, price, size, 'IOC');
    this.cancelAll(SCRIPT_ACCOUNTS.flow, marketId);
  }

  /**
   * A taker trades against the resting order `orderId` of `account` until `size` of it filled (all
   * that is left when omitted): the orders ahead of it (better prices, or earlier at its price)
   * fill first, as a real trade reaching it would fill them.
   */
  fillOrder(account: Address, orderId: string, size?: string): void {
    const order = this.runtime.exchange.order(orderId);
    if (order?.account.toLowerCase() !== account.toLowerCase() || order.status !== 'ORDER_STATUS_OPEN') {
      throw new PerpbotError(`no resting order ${orderId} of the bot to fill`, {
        code: 'INVALID_VALUE',
        hints: ['fill an order the venue still lists as open (see openOrders())'],
      });
    }
    const spec = this.marketOf(order.market_id);
    const left = order.size_steps - order.filled_steps;
    const wanted = size === undefined ? left : Number(countUnits(size, spec.config.step_size, 'size'));
    const steps = this.stepsAhead(order) + Math.min(wanted, left);
    const price = BigInt(order.price_ticks);
    this.placeSteps(SCRIPT_ACCOUNTS.taker, order.market_id, order.side === 0 ? 1 : 0, steps, price, 'IOC');
  }

  /**
   * Gives `account` a position as a trade outside the bot would (by hand, or an earlier run): the
   * flow account rests the other side at `entryPrice` and the account's own order takes it.
   */
  openPosition(account: Address, marketId: number, side: Side, size: string, entryPrice: string): void {
    this.place(SCRIPT_ACCOUNTS.flow, marketId, side === 'buy' ? 'sell' : 'buy', entryPrice, size, 'GTC');
    this.place(account, marketId, side, entryPrice, size, 'IOC');
    this.cancelAll(SCRIPT_ACCOUNTS.flow, marketId);
  }

  /** Open orders on the venue, of one account or every account. */
  openOrders(account: Address, marketId?: number): OrderRecord[] {
    return this.runtime.exchange.openOrders(account, marketId);
  }

  /** Steps resting on `order`'s side ahead of it in price-time priority: they fill before it. */
  private stepsAhead(order: OrderRecord): number {
    const all = [SCRIPT_ACCOUNTS.book, SCRIPT_ACCOUNTS.flow, order.account].flatMap((a) =>
      this.openOrders(a, order.market_id),
    );
    let ahead = 0;
    for (const other of all) {
      if (other.side !== order.side || other.order_id === order.order_id) continue;
      const better = order.side === 0 ? other.price_ticks > order.price_ticks : other.price_ticks < order.price_ticks;
      const earlier =
        other.price_ticks === order.price_ticks && BigInt(other.resting_order_id) < BigInt(order.resting_order_id);
      if (better || earlier) ahead += other.size_steps - other.filled_steps;
    }
    return ahead;
  }

  private place(
    account: Address,
    marketId: number,
    side: Side,
    price: string,
    size: string,
    timeInForce: 'GTC' | 'IOC',
    postOnly = false,
  ): void {
    const spec = this.marketOf(marketId);
    const steps = Number(countUnits(size, spec.config.step_size, 'size'));
    const ticks = countUnits(price, spec.config.step_price, 'price');
    this.placeSteps(account, marketId, side === 'buy' ? 0 : 1, steps, ticks, timeInForce, postOnly);
  }

  /** Runs a scripting order the venue may refuse (a post-only that would cross): the refusal is its answer. */
  private tryPlace(place: () => void): void {
    try {
      place();
    } catch (error) {
      if (!isExchangeRefusal(error)) throw error;
    }
  }

  private placeSteps(
    account: Address,
    marketId: number,
    side: 0 | 1,
    steps: number,
    ticks: bigint,
    timeInForce: 'GTC' | 'IOC',
    postOnly = false,
  ): void {
    if (steps <= 0) return;
    const params: PlaceOrderParams = {
      market_id: marketId,
      size_steps: steps,
      price_ticks: Number(ticks),
      side,
      post_only: postOnly,
      reduce_only: false,
      stp_mode: 0,
      order_type: 1,
      time_in_force: timeInForce === 'GTC' ? 0 : 3,
    };
    const result = this.runtime.exchange.placeOrder(account, params, this.o.time.now());
    this.runtime.recordAction(result.events);
  }

  private cancelAll(account: Address, marketId: number): void {
    this.runtime.recordAction(this.runtime.exchange.cancelAll(account, marketId).events);
  }

  private marketOf(marketId: number): MarketDefinition {
    const market = this.o.markets.find((m) => m.market_id === marketId);
    if (market === undefined)
      throw new PerpbotError(`the test kit has no market ${marketId}`, {
        code: 'INVALID_VALUE',
        hints: ["list it in the kit's `markets` option"],
      });
    return market;
  }
}
