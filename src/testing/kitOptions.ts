import type { z } from 'zod';
import type { ProtectionFields } from '../engine/intents/intents.js';
import type { RiskLimits } from '../engine/guards/riskLimits.js';
import type { BookLevel } from '../strategy/strategyViews.js';
import type { KitMarket } from './kitMarkets.js';

/** The config's `risk:` block, any field of it; the others take the default profile's values. */
export type KitRisk = Partial<Omit<RiskLimits, 'kill_switch'>> & { readonly kill_switch?: RiskLimits['kill_switch'] };

/** The default profile's limits (config/default.yaml): a kit test meets the limits a first run meets. */
export const DEFAULT_RISK: RiskLimits = {
  max_order_notional: '1000',
  max_position_per_market: '5000',
  max_open_orders: 20,
  max_actions_per_second: 40,
  kill_switch: { max_loss: '500' },
};

export interface StrategyTestOptions<P> {
  /** The strategy's config params (parsed by its schema, as at start-up). */
  readonly params?: z.input<z.ZodType<P>>;
  /** Markets the strategy trades (default [1]). */
  readonly markets?: readonly number[];
  /** Per-market grid and starting mark; markets not listed take the defaults. */
  readonly marketConfig?: Readonly<Record<number, KitMarket>>;
  /** Instance name (default the definition's name). */
  readonly name?: string;
  /** Virtual start time, Unix ms (default 2026-01-01T00:00:00Z). */
  readonly startMs?: number;
  /** The account's limits, as `risk:` in the config (default: the default profile's). */
  readonly risk?: KitRisk;
  /** The strategy's own budget, as its `risk:` block in the config: any field, the others fall back to `risk`. */
  readonly budget?: KitRisk;
  /** One-way latency of every REST request, answer and channel frame, in virtual ms (default 0). */
  readonly latencyMs?: number;
  /**
   * A block (with its oracle frame, GTT expiries) every this many virtual ms; default 0: only `mark()`
   * mines one, so a virtual day costs nothing (250, as the default profile's simulator, costs ~30 µs a block).
   */
  readonly blockMs?: number;
  /** The venue's REST limit per IP and 10 s (default 500, as the venue). */
  readonly restRequestsPer10s?: number;
  /** Fees in basis points of notional (default the simulator's: maker 2, taker 5). */
  readonly feesBps?: { readonly maker: number; readonly taker: number };
  /** Starting USDC balance (default "100000"). */
  readonly balance?: string;
  /** Saved state to start from (e.g. another kit's `storage` after a simulated restart). */
  readonly storage?: ReadonlyMap<string, unknown>;
  /** Wait for a mark, a book and trading before `run` (default true, as the runtime). */
  readonly waitUntilReady?: boolean;
  /** How long `stop()` lets onStop and its final intents take, in virtual ms (default 10 s). */
  readonly stopTimeoutMs?: number;
  /** Also print log lines (default: only recorded in `logs`). */
  readonly printLogs?: boolean;
  /**
   * The strategy's `protection:` in the config (its markets, these distances from the average
   * entry): the venue's TP/SL kept equal to its position, as for a strategy that asks itself.
   */
  readonly protection?: ProtectionFields;
}

/** Book levels as `[price, quantity]` pairs or level objects. */
export type KitLevels = readonly (readonly [string, string] | BookLevel)[];
