import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/spec-gaps.md is an index of one file per layer: every file is listed there, and every
 * reference to a file (and to a section by its quoted name) from the code, tests and docs resolves.
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const layerFiles = readdirSync(join(ROOT, 'docs/spec-gaps')).filter((f) => f.endsWith('.md'));

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
});
