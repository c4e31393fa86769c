import { readFileSync, rmSync } from 'node:fs';
import { writePrivateFileSync } from '../../../core/privateFiles.js';
import { basename, dirname, extname, join } from 'node:path';
import { z } from 'zod';

/** Where a running bot says its control server listens; no secret in it. */
export interface ControlRecord {
  readonly url: string;
  readonly pid: number;
  readonly account: string;
  readonly startedAt: string;
}

const controlRecord = z.object({
  url: z.url(),
  pid: z.number().int().positive(),
  account: z.string(),
  startedAt: z.string(),
});

/**
 * Beside the journal (data/journal.sqlite -> data/journal.control.json): a bot and the commands
 * that read its journal agree on that path already, so `perpbot status` with the same config
 * finds the running bot without another setting. Two bots never share a journal.
 */
export function controlFileFor(journalPath: string): string {
  const ext = extname(journalPath);
  return join(dirname(journalPath), `${basename(journalPath, ext)}.control.json`);
}

/** Written whole or not at all, readable by its owner only, never through a symlink (`writePrivateFileSync`). */
export function writeControlFile(path: string, record: ControlRecord): void {
  writePrivateFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
}

/** Removes the file if it still names this process (a newer bot may have replaced it). */
export function removeControlFile(path: string, pid: number): void {
  if (readControlFile(path)?.pid === pid) rmSync(path, { force: true });
}

/** Undefined when missing or unreadable. */
export function readControlFile(path: string): ControlRecord | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = controlRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The record at `path` when its process still runs; undefined when missing, unreadable or stale. */
export function liveControlRecord(path: string): ControlRecord | undefined {
  const record = readControlFile(path);
  return record !== undefined && processAlive(record.pid) ? record : undefined;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
