import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * CONTRIBUTING.md's Layout tables name every folder of `src/` and every sub-folder of its layers,
 * and every path CONTRIBUTING.md names exists: a repository path (`src/...`, `test/...`,
 * `docs/...`, `tools/...`, ...), a file at the root (`vitest.config.ts`), and each sub-folder
 * (`rest/`) or file (`runBot.ts`) a table row names, somewhere under that row's folder.
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const folders = (path: string) =>
  readdirSync(join(ROOT, path), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
const layout = contributing.split('## Layout')[1]?.split('\n## ')[0] ?? '';

const backticked = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
/** A path from the repository's root: a top-level folder of the repository, then more. */
const REPO_PATH = /^(src|test|docs|tools|bench|deploy|strategies|config|bin|\.ci)\/[\w./-]*$/;
/** A file name with an extension and no folder (`runBot.ts`, `tsconfig.json`). */
const FILE_NAME = /^[\w-]+(\.[\w-]+)*\.(ts|mts|js|mjs|json|md|sh|yaml)$/;
const SUB_FOLDER = /^[\w-]+\/$/;
/** A source file a layout row names (`runBot.ts`); other names there (`best.yaml`) are what the code writes. */
const SOURCE_FILE = /^[\w-]+(\.[\w-]+)*\.(ts|mts|js|mjs)$/;

/** Every file and folder under `dir` (relative to the root), by its own name. */
function namesUnder(dir: string): Set<string> {
  const names = new Set<string>();
  const walk = (path: string) => {
    for (const e of readdirSync(join(ROOT, path), { withFileTypes: true })) {
      names.add(e.isDirectory() ? `${e.name}/` : e.name);
      if (e.isDirectory()) walk(join(path, e.name));
    }
  };
  walk(dir);
  return names;
}

/** The Layout tables' rows: the folder a row is about (from the root) and the backticked names in its text. */
function tableRows(): { folder: string; names: string[] }[] {
  let base = '';
  const rows: { folder: string; names: string[] }[] = [];
  for (const line of layout.split('\n')) {
    const cells = /^\| `([^`]+)` \| (.*) \|$/.exec(line);
    if (cells === null) continue;
    const [, head, text] = cells as unknown as [string, string, string];
    if (text === 'what it holds') {
      base = head; // a table's header names the folder its rows are in (`src/runtime/`), or none
      continue;
    }
    rows.push({ folder: join(base, head).replace(/\/$/, ''), names: backticked(text) });
  }
  return rows;
}

describe('the Layout section of CONTRIBUTING.md', () => {
  it.each(folders('src'))('names src/%s and each of its sub-folders', (layer) => {
    expect(layout).toContain(`\`src/${layer}\``);
    for (const sub of folders(join('src', layer))) expect(layout, `src/${layer}/${sub}`).toContain(`\`${sub}/\``);
  });

  it('every folder and file a table row names exists under that row’s folder', () => {
    const rows = tableRows();
    expect(rows.map((r) => r.folder)).toContain('src/runtime/bot');
    const missing: string[] = [];
    for (const { folder, names } of rows) {
      expect(existsSync(join(ROOT, folder)), folder).toBe(true);
      const under = namesUnder(folder);
      for (const name of names)
        if ((SUB_FOLDER.test(name) || SOURCE_FILE.test(name)) && !under.has(name)) missing.push(`${folder}: ${name}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('the paths CONTRIBUTING.md names', () => {
  const outsideTables = contributing.replace(layout, (section) =>
    section
      .split('\n')
      .filter((line) => !line.startsWith('|'))
      .join('\n'),
  );

  it('every repository path exists', () => {
    const paths = backticked(contributing).filter((p) => REPO_PATH.test(p));
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it('every file named without a folder outside the tables exists at the root', () => {
    const files = backticked(outsideTables).filter((p) => FILE_NAME.test(p));
    expect(files).toContain('vitest.config.ts');
    expect(files.filter((f) => !existsSync(join(ROOT, f)))).toEqual([]);
  });

  it('the checks tell a missing path from a present one', () => {
    expect(REPO_PATH.test('src/engine/engine.ts') && existsSync(join(ROOT, 'src/engine/engine.ts'))).toBe(true);
    expect(existsSync(join(ROOT, 'src/testing/kitBot.ts'))).toBe(false);
    expect(REPO_PATH.test('perpbot/testing')).toBe(false);
    expect(namesUnder('src/runtime/bot').has('wiring/')).toBe(true);
    expect(SOURCE_FILE.test('runBot.ts') && SUB_FOLDER.test('wiring/') && !SOURCE_FILE.test('best.yaml')).toBe(true);
  });
});
