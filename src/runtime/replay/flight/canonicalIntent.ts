/**
 * An intent as `--verify` compares it: what it asks of the venue (kind, market, side, size, price,
 * order type and flags, a cancel's target), without what differs between two runs of the same
 * decisions: its own intent id and a client order id. Keys sorted, bigints as decimal strings, so
 * equal intents give equal text.
 */
export function canonicalIntent(intent: object): string {
  const fields: Record<string, unknown> = {};
  const json = JSON.parse(
    JSON.stringify(intent, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
  ) as Record<string, unknown>;
  for (const key of Object.keys(json).sort()) if (!IGNORED.has(key)) fields[key] = json[key];
  return JSON.stringify(fields);
}

const IGNORED = new Set(['intentId', 'clientOrderId']);
