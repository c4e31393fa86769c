import { addDecimals, compareDecimals, negateDecimal } from '../../../../core/decimal.js';
import { toPlaces, USDC_PLACES } from '../../../../core/displayDecimal.js';
import type { BotEvent } from '../botTimeline.js';
import type { VenueFill } from '../venueTruth.js';
import type { InvariantResult } from './invariant.js';

/**
 * The journal's latest balance snapshot is what the venue held when it was taken. The bot
 * snapshots the balance at each reconciliation and journals the fills in between, so the
 * snapshot is checked against the venue's balance at that moment, rebuilt exactly from the
 * venue's own ledger: its balance now less the cash effect (realised PnL minus fee) of every fill
 * it made since. The reconciliation stamps its rows with the time it began and read the balance
 * before its `reconciliation done` log line, so any balance the venue held in between matches.
 */
export function balanceMatch(
  journal: { readonly balance: string; readonly atMs: number } | undefined,
  venueBalance: string,
  venueFills: readonly VenueFill[],
  events: readonly BotEvent[],
): InvariantResult {
  if (journal === undefined) {
    return {
      id: 'balance_match',
      title: 'balance, journal = venue',
      ok: false,
      measured: `no snapshot, venue ${venueBalance}`,
      detail: 'the journal holds no balance snapshot',
      data: { venue: venueBalance },
    };
  }
  const doneAtMs = events.find((e) => e.type === 'reconciled' && e.atMs >= journal.atMs)?.atMs ?? journal.atMs;
  const since = venueFills.filter((f) => f.atMs >= journal.atMs);
  let held = since.reduce((balance, f) => addDecimals(balance, negateDecimal(cashOf(f))), venueBalance);
  const heldInWindow = [held];
  for (const f of since) {
    if (f.atMs > doneAtMs) break;
    held = addDecimals(held, cashOf(f));
    heldInWindow.push(held);
  }
  const ok = heldInWindow.some((b) => compareDecimals(b, journal.balance) === 0);
  const then = heldInWindow.length === 1 ? heldInWindow[0] : heldInWindow.join(' or ');
  // On screen at the venue's USDC precision; the detail of a failure and the JSON keep the exact values.
  const usdc = (value: string): string => toPlaces(value, USDC_PLACES);
  return {
    id: 'balance_match',
    title: 'balance, journal = venue',
    ok,
    measured: `${usdc(journal.balance)} USDC (venue then ${heldInWindow.map(usdc).join(' or ')}, now ${usdc(venueBalance)})`,
    ...(ok
      ? {}
      : {
          detail: `the journal's last snapshot ${journal.balance} (at ${new Date(journal.atMs).toISOString()}) is not what the venue held then (${then ?? '?'})`,
        }),
    data: {
      journal: journal.balance,
      journalAtMs: journal.atMs,
      venueThen: heldInWindow,
      venueNow: venueBalance,
      fillsSince: since.length,
    },
  };
}

/** What a fill did to the cross-margin balance. */
function cashOf(fill: VenueFill): string {
  return addDecimals(fill.realizedPnl, negateDecimal(fill.fee));
}
