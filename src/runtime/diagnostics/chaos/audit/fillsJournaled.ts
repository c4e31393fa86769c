import { addDecimals, compareDecimals } from '../../../../core/decimal.js';
import type { JournalFillRow } from '../journalTruth.js';
import type { VenueFill } from '../venueTruth.js';
import { firstFew, type InvariantResult } from './invariant.js';

/** Fill ids a reconciliation inferred stand for missed fills of one order: `reconciled:<order id>`. */
const INFERRED = /^reconciled:/;

/**
 * Every fill the venue made is in the journal under its own id, once, and the journal holds no
 * fill the venue never made. An inferred (`reconciled:`) row is not a venue fill: the venue fills
 * it stands for still count as missing by id, and an order whose journaled fills (inferred ones
 * included) add up to more than the venue filled counts as journaled twice.
 */
export function fillsJournaled(venue: readonly VenueFill[], journal: readonly JournalFillRow[]): InvariantResult {
  const journalIds = new Map<string, number>();
  for (const row of journal)
    journalIds.set(row.fillId.toLowerCase(), (journalIds.get(row.fillId.toLowerCase()) ?? 0) + 1);
  const venueIds = new Set(venue.map((f) => f.id.toLowerCase()));
  const missing = venue.filter((f) => !journalIds.has(f.id.toLowerCase())).map((f) => f.id);
  const twiceById = [...journalIds].filter(([, count]) => count > 1).map(([id]) => id);
  const inferred = journal.filter((row) => INFERRED.test(row.fillId));
  const unknown = journal
    .filter((row) => !INFERRED.test(row.fillId) && !venueIds.has(row.fillId.toLowerCase()))
    .map((row) => row.fillId);

  const venueFilled = sumByOrder(venue.map((f) => ({ orderId: f.orderId, size: f.size })));
  const journalFilled = sumByOrder(journal.map((row) => ({ orderId: row.orderId, size: row.size })));
  const overCounted = [...journalFilled]
    .filter(([orderId, size]) => compareDecimals(size, venueFilled.get(orderId) ?? '0') > 0)
    .map(([orderId, size]) => `order ${orderId}: journal ${size}, venue ${venueFilled.get(orderId) ?? '0'}`);

  const twice = twiceById.length + overCounted.length;
  const problems: string[] = [];
  if (missing.length > 0)
    problems.push(
      `missing from the journal: ${firstFew(missing)}${inferred.length > 0 ? ` (${inferred.length} inferred fill rows stand in for some)` : ''}`,
    );
  if (twiceById.length > 0) problems.push(`journaled twice: ${firstFew(twiceById)}`);
  if (overCounted.length > 0) problems.push(`journaled more than the venue filled: ${firstFew(overCounted, 2)}`);
  if (unknown.length > 0) problems.push(`journaled but never made by the venue: ${firstFew(unknown)}`);
  return {
    id: 'fills_journaled',
    title: 'fills journaled once',
    ok: problems.length === 0,
    measured: `${missing.length} missing, ${twice} twice, of ${venue.length} venue fills`,
    ...(problems.length === 0 ? {} : { detail: problems.join('; ') }),
    data: {
      venueFills: venue.length,
      journalFills: journal.length,
      missing: missing.length,
      journaledTwice: twice,
      inferredRows: inferred.length,
      unknownToVenue: unknown.length,
    },
  };
}

function sumByOrder(fills: readonly { orderId: string; size: string }[]): Map<string, string> {
  const sums = new Map<string, string>();
  for (const f of fills)
    sums.set(f.orderId.toLowerCase(), addDecimals(sums.get(f.orderId.toLowerCase()) ?? '0', f.size));
  return sums;
}
