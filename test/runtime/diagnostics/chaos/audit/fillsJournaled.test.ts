import { describe, expect, it } from 'vitest';
import { fillsJournaled } from '../../../../../src/runtime/diagnostics/chaos/audit/fillsJournaled.js';
import type { JournalFillRow } from '../../../../../src/runtime/diagnostics/chaos/journalTruth.js';
import type { VenueFill } from '../../../../../src/runtime/diagnostics/chaos/venueTruth.js';

function venueFill(id: string, orderId: string, size: string): VenueFill {
  return { id, orderId, marketId: 1, side: 'buy', size, fee: '0.01', realizedPnl: '0', atMs: 1_000 };
}

function row(fillId: string, orderId: string, size: string, source = 'venue'): JournalFillRow {
  return { fillId, orderId, marketId: 1, size, source };
}

describe('fillsJournaled', () => {
  const venue = [
    venueFill('11', '0xa1', '0.001'),
    venueFill('12', '0xa2', '0.0004'),
    venueFill('13', '0xa2', '0.0006'),
  ];

  it('holds when every venue fill is journaled once under its id, whatever the source', () => {
    const result = fillsJournaled(venue, [
      row('11', '0xa1', '0.001'),
      row('12', '0xa2', '0.0004', 'history'),
      row('13', '0xA2', '0.0006'),
    ]);
    expect(result.ok).toBe(true);
    expect(result.measured).toBe('0 missing, 0 twice, of 3 venue fills');
  });

  it('fails on a venue fill the journal lacks, even when an inferred row covers its size', () => {
    const result = fillsJournaled(venue, [
      row('11', '0xa1', '0.001'),
      row('12', '0xa2', '0.0004'),
      row('reconciled:0xa2', '0xa2', '0.0006', 'reconciled'),
    ]);
    expect(result.ok).toBe(false);
    expect(result.measured).toBe('1 missing, 0 twice, of 3 venue fills');
    expect(result.detail).toContain('missing from the journal: 13 (1 inferred fill rows stand in for some)');
  });

  it('fails when an inferred row and the venue fill it stands for are both journaled (counted twice)', () => {
    const result = fillsJournaled(venue, [
      row('11', '0xa1', '0.001'),
      row('12', '0xa2', '0.0004'),
      row('13', '0xa2', '0.0006'),
      row('reconciled:0xa2', '0xa2', '0.0006', 'reconciled'),
    ]);
    expect(result.ok).toBe(false);
    expect(result.measured).toBe('0 missing, 1 twice, of 3 venue fills');
    expect(result.detail).toContain('order 0xa2: journal 0.0016, venue 0.001');
  });

  it('fails on a fill id journaled twice and on a fill the venue never made', () => {
    const result = fillsJournaled(venue, [
      row('11', '0xa1', '0.001'),
      row('11', '0xa1', '0.001'),
      row('12', '0xa2', '0.0004'),
      row('13', '0xa2', '0.0006'),
      row('99', '0xa9', '1'),
    ]);
    expect(result.ok).toBe(false);
    expect(result.detail).toContain('journaled twice: 11');
    expect(result.detail).toContain('never made by the venue: 99');
  });
});
