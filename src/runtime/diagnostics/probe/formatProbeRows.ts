import type { ProbeRow } from './probeRow.js';
import { probePassed } from './probeRow.js';

const STATUS_TEXT: Readonly<Record<ProbeRow['status'], string>> = {
  ok: 'ok',
  departed: 'DEPARTED',
  failed: 'FAILED',
  skipped: 'skipped',
};

/**
 * The probe's table: one line per endpoint and channel (kind, name, status, detail), a `sample:`
 * line under each departure that was saved, and a verdict line a person can act on.
 */
export function formatProbeRows(
  rows: readonly ProbeRow[],
  venue: { readonly restUrl: string; readonly wsUrl: string },
): string {
  const nameWidth = Math.max(4, ...rows.map((r) => r.name.length));
  const lines = [`perpbot probe: REST ${venue.restUrl}  WS ${venue.wsUrl}`, ''];
  for (const row of rows) {
    lines.push(
      `${row.kind.padEnd(4)}  ${row.name.padEnd(nameWidth)}  ${STATUS_TEXT[row.status].padEnd(8)}  ${row.detail}`,
    );
    if (row.sample !== undefined) lines.push(`${' '.repeat(nameWidth + 18)}sample: ${row.sample}`);
  }
  const counts = (status: ProbeRow['status']): number => rows.filter((r) => r.status === status).length;
  lines.push('');
  lines.push(
    probePassed(rows)
      ? `all ${counts('ok')} reads and channels ok${counts('skipped') > 0 ? ` (${counts('skipped')} skipped)` : ''}`
      : `${counts('departed')} departed, ${counts('failed')} failed of ${rows.length} rows: a departure is a shape the bot's decoders refuse (see its sample and docs/spec-gaps/real-wire.md), a failure an answer that never came or a refusal`,
  );
  return `${lines.join('\n')}\n`;
}
