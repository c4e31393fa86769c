import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Segment file names: `rec-<start, compact ISO UTC>-<run segment, 6 digits>.jsonl.gz`. Sorting the
 * names sorts the segments by start time (and, for two started in the same millisecond, by
 * number), so "oldest" and "in order" are a plain sort, across runs too.
 */
const SEGMENT_NAME = /^rec-\d{8}T\d{6}\.\d{3}Z-\d{6}\.jsonl\.gz$/;

export function segmentFileName(startedAt: number, segment: number): string {
  const iso = new Date(startedAt).toISOString().replaceAll('-', '').replaceAll(':', '');
  return `rec-${iso}-${String(segment).padStart(6, '0')}.jsonl.gz`;
}

export function isSegmentFileName(name: string): boolean {
  return SEGMENT_NAME.test(name);
}

export interface SegmentFileInfo {
  readonly path: string;
  readonly bytes: number;
}

/** The segment files in `dir`, oldest first; other files are not the recorder's and are left alone. */
export async function listSegments(dir: string): Promise<SegmentFileInfo[]> {
  const names = (await readdir(dir)).filter(isSegmentFileName).sort();
  const out: SegmentFileInfo[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      out.push({ path, bytes: (await stat(path)).size });
    } catch {
      // Deleted since the listing (another recorder's budget): nothing to count.
    }
  }
  return out;
}
