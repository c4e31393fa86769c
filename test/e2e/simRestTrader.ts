import { parseUnits, type Hex } from 'viem';
import { expect } from 'vitest';
import { openOrderWire } from '../../src/sim/rest/marketWire.js';
import type { PrivateKeyAccount } from 'viem/accounts';
import {
  actionHash,
  limitOrder,
  type HttpAnswer,
  type OrderFields,
  type PermitOptions,
  type PlaceExtras,
  type SimRestHarness,
} from './simRestHarness.js';

/**
 * One funded, registered account with an Active signer on a `SimRestHarness`, acting over HTTP
 * with viem-signed permits: each action takes the next unused bit of anchor 0 (bit 0 went to the
 * signer registration). Reads return the wire records as the simulator serves them.
 */
export class SimRestTrader {
  private nextBit = 1;

  private constructor(
    readonly h: SimRestHarness,
    readonly account: PrivateKeyAccount,
    readonly signer: PrivateKeyAccount,
  ) {}

  static async create(h: SimRestHarness): Promise<SimRestTrader> {
    const { account, signer } = await h.trader();
    return new SimRestTrader(h, account, signer);
  }

  get address(): Hex {
    return this.account.address;
  }

  /** A fresh nonce pair; a refused action consumes nothing, so tests may also reuse one. */
  pair(): PermitOptions {
    return { anchor: 0n, bit: this.nextBit++ };
  }

  /** A limit GTC buy on market 1 unless `overrides` say otherwise. */
  place(overrides: Partial<OrderFields> = {}, extras: PlaceExtras = {}): Promise<HttpAnswer> {
    return this.h.place(this.signer, this.address, limitOrder(overrides), this.pair(), extras);
  }

  async leverage(marketId: number, leverage: number): Promise<HttpAnswer> {
    const permit_params = await this.h.permit(
      this.signer,
      this.address,
      actionHash.leverage(marketId, leverage),
      this.pair(),
    );
    return this.h.post('/v1/account/leverage', {
      market_id: String(marketId),
      leverage: String(leverage),
      permit_params,
    });
  }

  async marginMode(marketId: number, mode: number): Promise<HttpAnswer> {
    const permit_params = await this.h.permit(
      this.signer,
      this.address,
      actionHash.marginMode(marketId, mode),
      this.pair(),
    );
    return this.h.post('/v1/account/margin-mode', { market_id: String(marketId), margin_mode: mode, permit_params });
  }

  /** `amountWei`: USD × 10^18, negative removes (int128 in the hash, a signed decimal string on the wire). */
  async isolatedMargin(marketId: number, amountWei: bigint): Promise<HttpAnswer> {
    const permit_params = await this.h.permit(
      this.signer,
      this.address,
      actionHash.isolatedMargin(marketId, amountWei),
      this.pair(),
    );
    return this.h.post('/v1/account/isolated-margin', {
      market_id: String(marketId),
      amount: amountWei.toString(),
      permit_params,
    });
  }

  /**
   * The open orders as the simulator keeps them (with fill progress and GTT expiry), after
   * checking that GET /v1/orders/open lists exactly these in the venue's row shape.
   */
  async openOrders(marketId = 1): Promise<Record<string, any>[]> {
    const rows = (await this.h.get(`/v1/orders/open?account=${this.address}&market_id=${marketId}`)).json['data']
      .orders;
    const records = this.h.sim.context.exchange.openOrders(this.address, marketId);
    expect(rows).toEqual(records.map(openOrderWire));
    return records;
  }

  async position(marketId = 1): Promise<Record<string, string>> {
    return (await this.h.get(`/v1/account/position?account=${this.address}&market_id=${marketId}`)).json['data']
      .position;
  }

  /** The cross-margin balance read, in USD wei. */
  async balanceWei(): Promise<bigint> {
    return wei((await this.h.get(`/v1/account/cross-margin-balance?account=${this.address}`)).json['data'].balance);
  }
}

/** A market as GET /v1/markets serves it (the fields these tests read). */
export interface MarketWire {
  market_id: string;
  display_name: string;
  mark_price: string;
  active: boolean;
  config: {
    name: string;
    step_size: string;
    step_price: string;
    min_order_size: string;
    max_leverage: string;
    unlocked: boolean;
  };
}

export async function readMarkets(h: SimRestHarness): Promise<MarketWire[]> {
  return (await h.get('/v1/markets')).json['data'].markets;
}

export async function readMarket(h: SimRestHarness, marketId: number): Promise<MarketWire> {
  const market = (await readMarkets(h)).find((m) => m.market_id === String(marketId));
  if (market === undefined) throw new Error(`market ${marketId} is not served`);
  return market;
}

/** A decimal string as 18-decimal wei (USD wei for money, wei of the unit for sizes and prices). */
export function wei(decimal: string): bigint {
  return parseUnits(decimal, 18);
}

/** Exact USD wei of `steps` at `ticks` on a market's grid. */
export function notionalWei(market: MarketWire, ticks: number | bigint, steps: number | bigint): bigint {
  return (BigInt(ticks) * wei(market.config.step_price) * BigInt(steps) * wei(market.config.step_size)) / 10n ** 18n;
}

/** A position read as signed steps (negative when short, 0 when flat). */
export function signedSteps(market: MarketWire, position: Record<string, string>): bigint {
  if (position['size'] === '' || position['size'] === undefined) return 0n;
  const steps = wei(position['size']) / wei(market.config.step_size);
  // The single-position read sends side as an int, 1 = sell (venue-wire.md §2).
  return String(position['side']) === '1' || position['side'] === 'SELL' ? -steps : steps;
}

/** Integer division rounded up (positive operands). */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
