import { describe, expect, it } from 'vitest';
import { formatProbeRows } from '../../../../src/runtime/diagnostics/probe/formatProbeRows.js';
import { departureDetail, probePassed, type ProbeRow } from '../../../../src/runtime/diagnostics/probe/probeRow.js';

const VENUE = { restUrl: 'http://127.0.0.1:1', wsUrl: 'ws://127.0.0.1:1/ws' };
const OK: ProbeRow = { kind: 'rest', name: 'GET /v1/markets', status: 'ok', detail: 'HTTP 200, decoded' };
const SKIPPED: ProbeRow = { kind: 'ws', name: 'auth_v2', status: 'skipped', detail: 'no session key configured' };
const FAILURE = {
  source: 'ws:orderbook',
  field: 'data.bids.0.price',
  expected: 'decimal string below 1e18',
  received: 'string "63218500000000000000000"',
};
const DEPARTED: ProbeRow = {
  kind: 'ws',
  name: 'orderbook [1]',
  status: 'departed',
  detail: departureDetail(FAILURE, 3),
  failure: FAILURE,
  sample: '/j/wire-samples/x.json',
};
const FAILED: ProbeRow = {
  kind: 'ws',
  name: 'funding [1]',
  status: 'failed',
  detail: 'subscribe refused: invalid channel: funding',
};

describe('the probe rows', () => {
  it.each([
    ['all ok', [OK], true],
    ['ok and skipped (no keys)', [OK, SKIPPED], true],
    ['a departure', [OK, DEPARTED], false],
    ['a failure', [OK, FAILED], false],
  ] as const)('pass or not: %s', (_, rows, passed) => {
    expect(probePassed(rows)).toBe(passed);
  });

  it('a departure says the field, what was expected and what came, and how often', () => {
    expect(departureDetail(FAILURE)).toBe(
      'data.bids.0.price: expected decimal string below 1e18, received string "63218500000000000000000"',
    );
    expect(departureDetail(FAILURE, 3)).toMatch(/ \(3 times\)$/);
  });

  it('prints one aligned line per row, the sample under its departure, and the verdict', () => {
    const text = formatProbeRows([OK, DEPARTED, FAILED, SKIPPED], VENUE);
    const lines = text.split('\n');
    expect(lines[0]).toBe('perpbot probe: REST http://127.0.0.1:1  WS ws://127.0.0.1:1/ws');
    const rowLines = lines.filter((l) => /^(rest|ws) /.test(l));
    expect(rowLines).toHaveLength(4);
    // The status column starts at the same place on every line.
    const column = new Set(rowLines.map((l) => l.search(/ (ok|DEPARTED|FAILED|skipped) /)));
    expect(column.size).toBe(1);
    expect(rowLines[1]).toContain('DEPARTED  data.bids.0.price: expected decimal string below 1e18');
    expect(lines[lines.indexOf(rowLines[1] ?? '') + 1]?.trim()).toBe('sample: /j/wire-samples/x.json');
    expect(text).toContain('1 departed, 1 failed of 4 rows');
    expect(formatProbeRows([OK, SKIPPED], VENUE)).toContain('all 1 reads and channels ok (1 skipped)');
  });
});
