import { unlink } from 'node:fs/promises';
import { listSegments } from './segmentFiles.js';

export interface BudgetOptions {
  readonly dir: string;
  /** The most the recordings in `dir` may take on disk. */
  readonly maxBytes: number;
  /** Room kept for the segment being written (at most a segment's size). */
  readonly reserveBytes: number;
  /** The segment being written: never deleted. */
  readonly keep?: string;
}

/**
 * Deletes the oldest segments in `dir` until the others plus `reserveBytes` fit in `maxBytes`, so
 * the segment being written can grow to its full size without the directory passing its budget.
 * Returns the deleted paths, oldest first.
 */
export async function enforceRecordingBudget(options: BudgetOptions): Promise<string[]> {
  const segments = (await listSegments(options.dir)).filter((s) => s.path !== options.keep);
  let total = segments.reduce((sum, s) => sum + s.bytes, 0) + options.reserveBytes;
  const deleted: string[] = [];
  for (const segment of segments) {
    if (total <= options.maxBytes) break;
    await unlink(segment.path).catch((error: unknown) => {
      // Gone already (another process's budget) is what we wanted.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
    total -= segment.bytes;
    deleted.push(segment.path);
  }
  return deleted;
}
