/**
 * One row of the chaos audit: an invariant, whether it held, what was measured (a short text for
 * the table) and the numbers behind it (for the JSON report). `detail` says why it failed, with
 * the first offending ids, so the journal and the bot's log can be searched for them.
 */
export interface InvariantResult {
  /** Stable snake_case name, the key in the JSON report. */
  readonly id: InvariantId;
  /** Words for the table. */
  readonly title: string;
  readonly ok: boolean;
  readonly measured: string;
  readonly detail?: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export const INVARIANT_IDS = [
  'duplicate_executions',
  'fills_journaled',
  'nonce_errors',
  'malformed_requests',
  'process_exits',
  'kill_switch_trips',
  'degraded_periods',
  'reconnect_time',
  'positions_match',
  'balance_match',
] as const;

export type InvariantId = (typeof INVARIANT_IDS)[number];

/** The first few items of a list, for a detail line. */
export function firstFew(items: readonly string[], count = 3): string {
  const shown = items.slice(0, count).join(', ');
  return items.length > count ? `${shown} and ${items.length - count} more` : shown;
}
