import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/spec-gaps.md is an index of one file per layer: every file is listed there, and every
 * reference to a file (and to a section by its quoted name) from the code, tests and docs resolves.
 * It is a reference, not a change log: under 60 KB in all, sections by topic (none titled after a
 * tracker issue), one entry per choice ending in its source and status, naming only files that exist.
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const layerFiles = readdirSync(join(ROOT, 'docs/spec-gaps')).filter((f) => f.endsWith('.md'));
const allFiles = ['docs/spec-gaps.md', ...layerFiles.map((f) => `docs/spec-gaps/${f}`)];
const MAX_BYTES = 60_000;
const STATUSES = ['followed', 'chosen', 'disputed', 'sim', 'partial'];

/** A heading titled after a tracker issue ("Issue 25, part B"), as a change log has. */
function namesAnIssue(heading: string): boolean {
  return /issue\s*#?\d+/i.test(heading) || /\b[Pp]art [A-Z]\b/.test(heading);
}

/** The statuses in an entry's closing `[source; status]`, or undefined when it has none. */
function entryStatuses(entry: string): string[] | undefined {
  const tail = /\[[^[\]]+; ([^[\]]+)\]$/.exec(entry);
  return tail?.[1]!.split(/,|\//).map((s) => s.trim().split(/[\s:]/)[0]!);
}

function textFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return textFiles(path);
    return /\.(ts|md|html|js|mjs)$/.test(name) ? [path] : [];
  });
}

/** `docs/spec-gaps/<file>.md`, and the section name quoted right after it, if any. */
function references(): { from: string; file: string; section: string | undefined }[] {
  const sources = [...textFiles('src'), ...textFiles('test'), ...textFiles('docs'), 'README.md', 'CONTRIBUTING.md'];
  return sources.flatMap((from) =>
    [...read(from).matchAll(/docs\/spec-gaps\/([\w-]+\.md)(?:[\s,(]*"([^"\n]+)")?/g)].map((m) => ({
      from,
      file: m[1]!,
      section: m[2],
    })),
  );
}

/** Every backticked source path (`src/…`, `test/…`, `bench/…`) or file name (`retryPolicy.ts`) in the spec-gaps. */
function namedFiles(): { f: string; name: string }[] {
  return allFiles.flatMap((f) =>
    [...read(f).matchAll(/`((?:src|test|bench)\/[\w./-]*|[\w-]+\.ts)`/g)].map((m) => ({ f, name: m[1]! })),
  );
}

let sourceNames: Set<string> | undefined;

/** Whether a named path, or a bare file name found nowhere in src/, test/ or bench/, is missing. */
function missingFile(name: string): boolean {
  if (name.includes('/')) return !existsSync(join(ROOT, name));
  sourceNames ??= new Set(['src', 'test', 'bench'].flatMap(textFiles).map((path) => basename(path)));
  return !sourceNames.has(name);
}

describe('docs/spec-gaps', () => {
  it('the index links every layer file, and only those', () => {
    const linked = [...read('docs/spec-gaps.md').matchAll(/\]\(spec-gaps\/([\w-]+\.md)\)/g)].map((m) => m[1]);
    expect(linked.sort()).toEqual([...layerFiles].sort());
  });

  it('every reference from the code, tests and docs names a file and a section that exist', () => {
    const refs = references();
    expect(refs.length).toBeGreaterThan(5);
    for (const { from, file, section } of refs) {
      expect(layerFiles, `${from} names docs/spec-gaps/${file}`).toContain(file);
      const text = read(join('docs/spec-gaps', file));
      if (section !== undefined)
        expect(
          text.includes(`## ${section}`) || text.includes(`**${section}**`),
          `${from}: "${section}" in ${file}`,
        ).toBe(true);
    }
  });

  it('names only source files that exist', () => {
    const named = namedFiles();
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter(({ name }) => missingFile(name)).map(({ f, name }) => `${f}: ${name}`)).toEqual([]);
  });

  it('is under 60 KB in all', () => {
    const bytes = allFiles.reduce((sum, f) => sum + statSync(join(ROOT, f)).size, 0);
    expect(bytes).toBeGreaterThan(10_000);
    expect(bytes, `docs/spec-gaps: ${bytes} bytes`).toBeLessThan(MAX_BYTES);
  });

  it('has no heading titled after an issue', () => {
    const headings = allFiles.flatMap((f) =>
      read(f)
        .split('\n')
        .filter((line) => line.startsWith('#'))
        .map((line) => `${f}: ${line}`),
    );
    expect(headings.length).toBeGreaterThan(layerFiles.length * 2);
    expect(headings.filter(namesAnIssue)).toEqual([]);
  });

  it('ends every entry with its source and a known status', () => {
    const entries = layerFiles.flatMap((f) =>
      read(join('docs/spec-gaps', f))
        .split('\n')
        .filter((line) => line.startsWith('- '))
        .map((line) => ({ f, line })),
    );
    expect(entries.length).toBeGreaterThan(100);
    for (const { f, line } of entries) {
      const statuses = entryStatuses(line);
      expect(statuses, `${f}: ${line.slice(0, 80)}`).toBeDefined();
      for (const status of statuses!) expect(STATUSES, `${f}: ${line.slice(0, 80)}`).toContain(status);
    }
  });

  it('the checks tell a change-log heading, an entry without a status and a missing file', () => {
    expect(namesAnIssue('## Issue 25, part B: one ledger')).toBe(true);
    expect(namesAnIssue('## issue 26: the safe stop')).toBe(true);
    expect(namesAnIssue('## Part C of the journal')).toBe(true);
    expect(namesAnIssue('## The ledger')).toBe(false);
    expect(entryStatuses('- **Fees**: maker 2 bps. [ours; sim]')).toEqual(['sim']);
    expect(entryStatuses('- **Login**: bare. [venue-facts; followed, disputed]')).toEqual(['followed', 'disputed']);
    expect(entryStatuses('- **Fees**: maker 2 bps.')).toBeUndefined();
    expect(missingFile('src/venue/state/readVenueState.ts')).toBe(true);
    expect(missingFile('src/venue/state/venueSnapshot.ts')).toBe(false);
    expect(missingFile('retryPolicy.ts')).toBe(false);
    expect(missingFile('readVenueState.ts')).toBe(true);
  });
});
