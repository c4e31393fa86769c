import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * perpbot's version, from the package.json of the package it runs from (src/ in a checkout, dist/
 * when installed: both two folders under the root). `unknown` when none is there to read (a copy of
 * the sources without the package file), so a metric or a log line never fails for it.
 */
export function perpbotVersion(): string {
  try {
    const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json');
    const version: unknown = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' && version !== '' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
