import type { Database } from 'better-sqlite3';
import { decimalToWei, weiToDecimal } from '../../core/decimal.js';
import type { TpslOrder } from '../../engine/orders/tpslOrder.js';
import { isVenueProtecting } from '../../engine/orders/tpslState.js';

/** The OperatorHub allowance as setup granted it (approve-single), journaled. */
export interface OperatorAllowance {
  readonly operator: string;
  readonly budgetWei: bigint;
  /** Unix seconds. */
  readonly expiry: number;
  readonly atMs: number;
}

/** `perpbot setup` journals each allowance it granted: the bot judges its TP/SL budget by it. */
export function recordOperatorAllowance(
  db: Database,
  account: string,
  a: {
    readonly operator: string;
    readonly budgetWei: bigint;
    readonly allowanceExpiry: number;
    readonly txHash: string;
  },
  atMs: number,
): void {
  db.prepare(
    'INSERT INTO operator_allowances (account, operator, budget_wei, expiry_s, tx_hash, at_ms) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(account.toLowerCase(), a.operator, a.budgetWei.toString(), a.allowanceExpiry, a.txHash, atMs);
}

export function latestOperatorAllowance(db: Database, account: string): OperatorAllowance | undefined {
  const row = db
    .prepare(
      'SELECT operator, budget_wei, expiry_s, at_ms FROM operator_allowances WHERE account = ? ORDER BY id DESC LIMIT 1',
    )
    .get(account.toLowerCase()) as
    { operator: string; budget_wei: string; expiry_s: number; at_ms: number } | undefined;
  return row === undefined
    ? undefined
    : { operator: row.operator, budgetWei: BigInt(row.budget_wei), expiry: row.expiry_s, atMs: row.at_ms };
}

/** USD the TP/SL executions spent since the allowance: their fills' notional (the venue's spend rule). */
export function spentSinceWei(db: Database, account: string, sinceMs: number): bigint {
  const rows = db
    .prepare("SELECT price, size FROM fills WHERE account = ? AND at_ms >= ? AND intent_id LIKE 'tpsl-%'")
    .all(account.toLowerCase(), sinceMs) as { price: string; size: string }[];
  let spent = 0n;
  for (const r of rows) spent += (decimalToWei(r.price, 'price') * decimalToWei(r.size, 'size')) / 10n ** 18n;
  return spent;
}

const DAY_S = 86_400;

/**
 * The watchdog's word on the budget: none journaled (granted elsewhere, or never), expired or
 * expiring within a day, or less left than the open stops need (each stop-loss's size × stop
 * price: what its execution would spend). Undefined when it is fine.
 */
export function budgetWarning(
  allowance: OperatorAllowance | undefined,
  spentWei: bigint,
  orders: readonly TpslOrder[],
  nowMs: number,
): string | undefined {
  if (allowance === undefined)
    return 'no OperatorHub allowance journaled: the venue executes TP/SL orders only within one (perpbot setup grants it)';
  const nowS = Math.floor(nowMs / 1000);
  if (allowance.expiry <= nowS)
    return `the OperatorHub allowance expired at ${new Date(allowance.expiry * 1000).toISOString()}: stops cannot execute; run perpbot setup`;
  if (allowance.expiry - nowS < DAY_S)
    return `the OperatorHub allowance expires at ${new Date(allowance.expiry * 1000).toISOString()}, within a day; run perpbot setup`;
  const left = allowance.budgetWei - spentWei;
  let needed = 0n;
  for (const o of orders)
    if (o.role === 'stop_loss' && isVenueProtecting(o.state))
      needed += (decimalToWei(o.size, 'size') * decimalToWei(o.stopPrice, 'stopPrice')) / 10n ** 18n;
  if (left >= needed) return undefined;
  return `the OperatorHub budget left (${weiToDecimal(left < 0n ? 0n : left)} USD) is below what the open stops need (${weiToDecimal(needed)} USD); run perpbot setup --budget`;
}
