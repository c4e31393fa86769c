/**
 * What the alert webhook can be told about (`alerts.events` of the config). Each is one JSON post
 * with a `text` a chat tool shows as it is. `fill` is off by default: a market maker fills all day,
 * and an alert channel that speaks every minute is one nobody reads.
 */
export const ALERT_EVENTS = [
  'kill_switch',
  'degraded',
  'recovered',
  'feed_lost',
  'feed_stale',
  'strategy_error',
  'unknown_outcome',
  'position_unprotected',
  'fill',
] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

export const DEFAULT_ALERT_EVENTS: readonly AlertEvent[] = ALERT_EVENTS.filter((e) => e !== 'fill');
