import { decimalToWei } from '../../core/decimal.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import type { OraclePriceRecord } from './exchangeRecords.js';
import type { MarketSpec } from './markets.js';
import { deriveSeed, SeededRandom } from './seededRandom.js';

interface OracleState {
  readonly market: MarketSpec;
  readonly random: SeededRandom;
  /** Prices are kept on this grid (a hundredth of a tick) so decimals stay short. */
  readonly quantumWei: bigint;
  indexWei: bigint;
  markWei: bigint;
}

/**
 * The oracle: a seeded random walk of each market's index price, one step per block, with the
 * mark a small seeded premium away from the index. Same seed and same calls → same prices.
 */
export class OraclePrices {
  private readonly states = new Map<number, OracleState>();
  private readonly volatilityPpm: number;

  constructor(markets: Iterable<MarketSpec>, seed: number, volatilityPpm = 300) {
    if (!Number.isInteger(volatilityPpm) || volatilityPpm < 0 || volatilityPpm > 100_000) {
      throw new InvalidValueError('oracleVolatilityPpm', volatilityPpm, 'an integer 0 to 100000');
    }
    this.volatilityPpm = volatilityPpm;
    for (const market of markets) {
      const start = decimalToWei(market.definition.initial_mark_price, 'initial_mark_price');
      const quantumWei = market.tickWei >= 100n ? market.tickWei / 100n : 1n;
      this.states.set(market.marketId, {
        market,
        random: new SeededRandom(deriveSeed(seed, 'oracle', market.marketId)),
        quantumWei,
        indexWei: start,
        markWei: start,
      });
    }
  }

  /** One block: every market's index moves by at most ±volatility, the mark gets a fresh premium. */
  step(): void {
    const v = this.volatilityPpm;
    // A still oracle (the test kit, a replay) moves only when a price is set.
    if (v === 0) return;
    for (const state of this.states.values()) {
      const move = BigInt(state.random.between(-v, v));
      const premium = BigInt(state.random.between(-Math.floor(v / 4), Math.floor(v / 4)));
      state.indexWei = this.onGrid(state, state.indexWei + (state.indexWei * move) / 1_000_000n);
      state.markWei = this.onGrid(state, state.indexWei + (state.indexWei * premium) / 1_000_000n);
    }
  }

  /** Test control: mark and index both jump to `priceWei`. */
  setMark(marketId: number, priceWei: bigint): void {
    const state = this.state(marketId);
    if (priceWei <= 0n) throw new InvalidValueError('price', priceWei, 'a positive price');
    state.markWei = priceWei;
    state.indexWei = priceWei;
  }

  /** A driven oracle: mark and index as given (a recording's). */
  setPrices(marketId: number, markWei: bigint, indexWei: bigint): void {
    const state = this.state(marketId);
    if (markWei <= 0n || indexWei <= 0n)
      throw new InvalidValueError('price', { markWei, indexWei }, 'positive mark and index prices');
    state.markWei = markWei;
    state.indexWei = indexWei;
  }

  markWei(marketId: number): bigint {
    return this.state(marketId).markWei;
  }

  indexWei(marketId: number): bigint {
    return this.state(marketId).indexWei;
  }

  /** Integer wei strings keyed by market id string: `data.prices` of the oracle channel. */
  prices(): Record<string, OraclePriceRecord> {
    const out: Record<string, OraclePriceRecord> = {};
    for (const [id, state] of this.states) {
      out[String(id)] = { mark_price: state.markWei.toString(), index_price: state.indexWei.toString() };
    }
    return out;
  }

  private onGrid(state: OracleState, wei: bigint): bigint {
    const snapped = (wei / state.quantumWei) * state.quantumWei;
    return snapped < state.market.tickWei ? state.market.tickWei : snapped;
  }

  private state(marketId: number): OracleState {
    const state = this.states.get(marketId);
    if (state === undefined) throw new InvalidValueError('market_id', marketId, 'a market the oracle prices');
    return state;
  }
}
