import type { GuardConfig } from '../config/engineConfig.js';
import { ALLOW, type GuardState, type GuardVerdict, type TokenBucketState } from './guardState.js';

export type { TokenBucketState } from './guardState.js';

/**
 * A token bucket over every signed action: `actionBurst` at once, refilled at `actionsPerSecond`.
 * Kept in integer milli-tokens so refills are exact. Checking never consumes; the wiring calls
 * `recordAction` when it actually sends. Over the limit the verdict is "wait", not "refuse": a
 * cancel delayed by a few milliseconds is better than a cancel dropped.
 */
const ONE_TOKEN = 1000;

export function fullBucket(config: GuardConfig, nowMs: number): TokenBucketState {
  return { milliTokens: config.actionBurst * ONE_TOKEN, updatedAtMs: nowMs };
}

function refill(bucket: TokenBucketState, nowMs: number, config: GuardConfig): number {
  const elapsed = Math.max(0, nowMs - bucket.updatedAtMs);
  // tokens/s × ms = milli-tokens
  return Math.min(config.actionBurst * ONE_TOKEN, bucket.milliTokens + elapsed * config.actionsPerSecond);
}

export function checkActionRate(state: GuardState, _intent: unknown, config: GuardConfig): GuardVerdict {
  const available = refill(state.actionBucket, state.nowMs, config);
  if (available >= ONE_TOKEN) return ALLOW;
  return {
    kind: 'wait',
    reason: `more than ${config.actionsPerSecond} actions per second (burst ${config.actionBurst})`,
    retryAfterMs: Math.ceil((ONE_TOKEN - available) / config.actionsPerSecond),
  };
}

export function recordAction(bucket: TokenBucketState, nowMs: number, config: GuardConfig): TokenBucketState {
  return {
    milliTokens: Math.max(0, refill(bucket, nowMs, config) - ONE_TOKEN),
    updatedAtMs: Math.max(nowMs, bucket.updatedAtMs),
  };
}
