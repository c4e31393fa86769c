import { isDecimalString } from '../../core/decimal.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import type { StpMode } from '../intents/intents.js';

/**
 * Every engine knob in one place, as plain interfaces with defaults. The runtime maps YAML onto
 * `EngineConfigInput` (validated with zod there) and calls `withEngineDefaults`, which also
 * checks the cross-field rules a schema cannot see on its own (slot < slots, ...).
 */

export interface PreTradeConfig {
  /** Slippage bound of market orders and position closes, in basis points of the mark. */
  readonly defaultMaxSlippageBps: number;
  /** Per-intent overrides above this are refused: a typo must not become a 90% bound. */
  readonly maxSlippageBpsLimit: number;
  readonly defaultStpMode: StpMode;
  /** Fixed-point scale of the signed int128 isolated-margin amount (USD × 10^18 on the venue). */
  readonly isolatedMarginDecimals: number;
}

export interface GuardConfig {
  /** USDC, size × price (limit price; the mark for market orders). */
  readonly maxOrderNotional: string;
  /** USDC, |position after the order| × mark, per market unless overridden below. */
  readonly maxPositionNotional: string;
  /** Keyed by numeric market id as a string ("1"). */
  readonly maxPositionNotionalByMarket: Readonly<Record<string, string>>;
  /** Resting orders plus in-flight placements, whole account. */
  readonly maxOpenOrders: number;
  /** Token bucket for every signed action. */
  readonly actionsPerSecond: number;
  readonly actionBurst: number;
  /** The venue allows one leverage update per second per account (venue-facts "Rate limits"). */
  readonly leverageUpdateIntervalMs: number;
  /** USDC; the kill switch trips when realized + unrealized PnL falls to -maxLoss or below. */
  readonly killSwitchMaxLoss: string;
  /**
   * The loss must still be there this long after it was first seen before the switch trips: one
   * transaction reaches the engine as several frames (an isolated-margin move shows on the
   * positions channel and the account channel separately), and the equity between them is not a
   * loss. 0 trips on the first sight.
   */
  readonly killSwitchLossConfirmMs: number;
}

export interface NonceConfig {
  /** This process uses bits b with b % slots === slot, so several processes can share an account. */
  readonly slot: number;
  readonly slots: number;
}

export interface RetryConfig {
  /** Registration lag after the first deposit: keep retrying AccountNotRegistered this long. */
  readonly accountNotRegisteredMaxAttempts: number;
  readonly accountNotRegisteredBaseDelayMs: number;
  readonly accountNotRegisteredMaxDelayMs: number;
  readonly rateLimitedDelayMs: number;
  readonly rateLimitedMaxAttempts: number;
  /** Identical resends after a timeout, 5xx or dropped connection, before giving up as unknown. */
  readonly maxResends: number;
  readonly resendDelayMs: number;
}

/**
 * Degraded mode: while the private feeds are down or not yet reconciled after a reconnect, the
 * engine does not know its orders and fills, so it opens nothing; what only reduces risk may go.
 */
export interface DegradedConfig {
  /** Cancels (one order, or all of a market) go through while degraded. */
  readonly allowCancels: boolean;
  /** Reduce-only placements and position closes go through while degraded. */
  readonly allowReduceOnly: boolean;
  /** An outage longer than this trips the kill switch (0: never). */
  readonly maxOutageMs: number;
  /** After that: stop the bot, or keep waiting (kill switch tripped) for the feeds to come back. */
  readonly onMaxOutage: 'stop' | 'wait';
}

export interface EngineConfig {
  readonly preTrade: PreTradeConfig;
  readonly guards: GuardConfig;
  readonly nonces: NonceConfig;
  readonly retry: RetryConfig;
  readonly degraded: DegradedConfig;
}

export type EngineConfigInput = { readonly [K in keyof EngineConfig]?: Partial<EngineConfig[K]> };

export const DEFAULT_ENGINE_CONFIG: EngineConfig = Object.freeze({
  preTrade: Object.freeze({
    defaultMaxSlippageBps: 50,
    maxSlippageBpsLimit: 500,
    defaultStpMode: 'expire_maker' as const,
    isolatedMarginDecimals: 18,
  }),
  guards: Object.freeze({
    maxOrderNotional: '1000',
    maxPositionNotional: '5000',
    maxPositionNotionalByMarket: Object.freeze({}),
    maxOpenOrders: 50,
    actionsPerSecond: 10,
    actionBurst: 20,
    leverageUpdateIntervalMs: 1000,
    killSwitchMaxLoss: '100',
    killSwitchLossConfirmMs: 500,
  }),
  nonces: Object.freeze({ slot: 0, slots: 1 }),
  retry: Object.freeze({
    accountNotRegisteredMaxAttempts: 10,
    accountNotRegisteredBaseDelayMs: 500,
    accountNotRegisteredMaxDelayMs: 5000,
    rateLimitedDelayMs: 1000,
    rateLimitedMaxAttempts: 5,
    maxResends: 3,
    resendDelayMs: 250,
  }),
  degraded: Object.freeze({
    allowCancels: true,
    allowReduceOnly: true,
    maxOutageMs: 300_000,
    onMaxOutage: 'stop' as const,
  }),
});

export function withEngineDefaults(input: EngineConfigInput = {}): EngineConfig {
  const config: EngineConfig = {
    preTrade: { ...DEFAULT_ENGINE_CONFIG.preTrade, ...input.preTrade },
    guards: { ...DEFAULT_ENGINE_CONFIG.guards, ...input.guards },
    nonces: { ...DEFAULT_ENGINE_CONFIG.nonces, ...input.nonces },
    retry: { ...DEFAULT_ENGINE_CONFIG.retry, ...input.retry },
    degraded: { ...DEFAULT_ENGINE_CONFIG.degraded, ...input.degraded },
  };
  validate(config);
  return config;
}

function validate(config: EngineConfig): void {
  const { preTrade, guards, nonces, retry, degraded } = config;
  wholeNumber('degraded.maxOutageMs', degraded.maxOutageMs, 0, 86_400_000);
  wholeNumber('nonces.slots', nonces.slots, 1, 208);
  wholeNumber('nonces.slot', nonces.slot, 0, nonces.slots - 1);
  wholeNumber('preTrade.defaultMaxSlippageBps', preTrade.defaultMaxSlippageBps, 1, preTrade.maxSlippageBpsLimit);
  wholeNumber('preTrade.maxSlippageBpsLimit', preTrade.maxSlippageBpsLimit, 1, 9999);
  wholeNumber('preTrade.isolatedMarginDecimals', preTrade.isolatedMarginDecimals, 0, 36);
  positiveDecimal('guards.maxOrderNotional', guards.maxOrderNotional);
  positiveDecimal('guards.maxPositionNotional', guards.maxPositionNotional);
  for (const [market, limit] of Object.entries(guards.maxPositionNotionalByMarket)) {
    positiveDecimal(`guards.maxPositionNotionalByMarket.${market}`, limit);
  }
  positiveDecimal('guards.killSwitchMaxLoss', guards.killSwitchMaxLoss);
  wholeNumber('guards.maxOpenOrders', guards.maxOpenOrders, 0, Number.MAX_SAFE_INTEGER);
  wholeNumber('guards.actionsPerSecond', guards.actionsPerSecond, 1, 1_000_000);
  wholeNumber('guards.actionBurst', guards.actionBurst, 1, 1_000_000);
  wholeNumber('guards.leverageUpdateIntervalMs', guards.leverageUpdateIntervalMs, 0, 3_600_000);
  wholeNumber('guards.killSwitchLossConfirmMs', guards.killSwitchLossConfirmMs, 0, 60_000);
  wholeNumber('retry.accountNotRegisteredMaxAttempts', retry.accountNotRegisteredMaxAttempts, 1, 1000);
  wholeNumber('retry.rateLimitedMaxAttempts', retry.rateLimitedMaxAttempts, 1, 1000);
  wholeNumber('retry.maxResends', retry.maxResends, 0, 100);
  for (const key of [
    'accountNotRegisteredBaseDelayMs',
    'accountNotRegisteredMaxDelayMs',
    'rateLimitedDelayMs',
    'resendDelayMs',
  ] as const) {
    wholeNumber(`retry.${key}`, retry[key], 0, 3_600_000);
  }
}

function wholeNumber(field: string, value: number, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidValueError(field, value, `a whole number from ${min} to ${max}`);
  }
}

function positiveDecimal(field: string, value: string): void {
  if (!isDecimalString(value) || value.startsWith('-') || /^0*(\.0*)?$/.test(value)) {
    throw new InvalidValueError(field, value, 'a positive decimal string such as "1000"');
  }
}
