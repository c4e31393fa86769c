import { PerpbotError } from '../../core/perpbotError.js';

/**
 * Why an intent was refused before anything was signed: the rule that refused it, the offending
 * value as text, a reason a human can act on, and optional hints. Pre-trade checks and guards
 * share this shape so outcomes, logs and the strategy all see one format.
 */
export type RefusalRule =
  // pre-trade checks
  | 'intent'
  | 'market_id'
  | 'market_config'
  | 'market_inactive'
  | 'market_reduce_only'
  | 'market_post_only'
  | 'side'
  | 'size'
  | 'size_step'
  | 'min_order_size'
  | 'size_steps_range'
  | 'price'
  | 'price_tick'
  | 'price_ticks_range'
  | 'mark_price'
  | 'slippage'
  | 'time_in_force'
  | 'post_only'
  | 'reduce_only'
  | 'stp_mode'
  | 'client_order_id'
  | 'ttl_units'
  | 'leverage'
  | 'margin_mode'
  | 'isolated_margin_amount'
  | 'cancel_target'
  /**
   * The cancel's order already filled or was cancelled: a race with the venue, nothing to do. Also the
   * outcome of a cancel the venue answered OrderNotFound (sent, but it found nothing open to cancel).
   */
  | 'cancel_target_finished'
  /** A replace whose old order is not one of this process's live limit orders. */
  | 'replace_target'
  /** A replace (break-before-make) whose old order filled before its cancel: nothing new was placed. */
  | 'replace_target_finished'
  /** A replace (break-before-make) whose old order's cancel did not go through: nothing new was placed. */
  | 'replace_cancel_failed'
  /** A replace (make-before-break) whose new order was not placed: the old one's cancel was not sent. */
  | 'replacement_not_placed'
  /** A quote target the engine cannot take (an unknown market, a price or size off its grid). */
  | 'quote_target'
  /** A protect or bracket intent the engine cannot take (its distances, trigger, market or entry). */
  | 'protection'
  // guards
  | 'kill_switch'
  | 'max_order_notional'
  | 'max_position'
  | 'max_open_orders'
  | 'margin_mode_open_position'
  | 'isolated_margin_mode'
  // engine wiring
  | 'guard_wait_timeout'
  /** A check threw while judging the intent: refused, because a check that cannot decide fails closed. */
  | 'guard_error'
  /** Degraded: the private feeds are down or not reconciled since a reconnect; nothing that opens risk goes. */
  | 'feed_down'
  /** The journal cannot be written: nothing that opens risk goes until it can; cancels and closes do. */
  | 'journal_down'
  /** A stream this strategy declared a freshness budget on is older than the budget: only it is reduce-only. */
  | 'feed_stale'
  /** A placement cancelled while it waited for admission (its strategy's budget, a rate limit): nothing was sent. */
  | 'cancelled_queued'
  | 'engine_stopped';

/** The rule as the code logs and metrics carry (FEED_DOWN, MAX_OPEN_ORDERS, ...). */
export type RefusalCode = Uppercase<RefusalRule>;

export function refusalCode(rule: RefusalRule): RefusalCode {
  return rule.toUpperCase() as RefusalCode;
}

export interface Refusal {
  readonly rule: RefusalRule;
  readonly value: string;
  readonly reason: string;
  readonly hints: readonly string[];
}

export function refusal(rule: RefusalRule, value: unknown, reason: string, ...hints: string[]): Refusal {
  return { rule, value: showValue(value), reason, hints };
}

/** The thrown form, for callers that prefer exceptions (the style guide's intent-refused error). */
export class IntentRefusedError extends PerpbotError {
  readonly refusal: Refusal;

  constructor(intentId: string, refused: Refusal) {
    super(`intent ${intentId} refused by ${refused.rule}: ${refused.reason} (value ${refused.value})`, {
      code: 'INTENT_REFUSED',
      details: { intentId, rule: refused.rule, value: refused.value },
      hints: refused.hints,
    });
    this.refusal = refused;
  }
}

function showValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined) return 'undefined';
  try {
    return (
      JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? unserializable(value)
    );
  } catch {
    return unserializable(value);
  }
}

/** What JSON cannot show (a symbol, a function, a circular object), named by its kind rather than its source text. */
function unserializable(value: unknown): string {
  if (typeof value === 'symbol') return value.toString();
  if (typeof value === 'function') return `[function ${value.name === '' ? '(anonymous)' : value.name}]`;
  return Object.prototype.toString.call(value);
}

/**
 * Control flow inside the checks: a rule that fails throws `ThrownRefusal`, and the public entry point
 * turns it into a `{ ok: false, refusal }` verdict. It never escapes the engine's pure core.
 */
export class ThrownRefusal extends Error {
  readonly refusal: Refusal;

  constructor(refused: Refusal) {
    super(`${refused.rule}: ${refused.reason}`);
    this.name = 'ThrownRefusal';
    this.refusal = refused;
  }
}

export function refuse(rule: RefusalRule, value: unknown, reason: string, ...hints: string[]): never {
  throw new ThrownRefusal(refusal(rule, value, reason, ...hints));
}
