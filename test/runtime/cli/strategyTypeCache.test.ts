import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StrategyTypeCache } from '../../../src/runtime/cli/strategyTypeCache.js';

/** The passes `perpbot start` keeps so it type-checks a strategy again only after a change. */
const root = mkdtempSync(join(tmpdir(), 'perpbot-type-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function project(name: string, helper = 'export const n = 1;\n'): { file: string; helper: string } {
  const dir = join(root, name);
  mkdirSync(join(dir, 'strategies'), { recursive: true });
  writeFileSync(join(dir, 'strategies', 'helper.ts'), helper);
  writeFileSync(join(dir, 'strategies', 'mine.ts'), "import { n } from './helper.js';\nexport default n;\n");
  return { file: join(dir, 'strategies', 'mine.ts'), helper: join(dir, 'strategies', 'helper.ts') };
}

describe('StrategyTypeCache', () => {
  it('remembers a pass until a file the check read changes', () => {
    const cache = StrategyTypeCache.open({ PERPBOT_CACHE_DIR: join(root, 'cache-a') });
    const { file, helper } = project('a');
    const key = cache.keyOf(file)!;
    expect(cache.passed(key)).toBe(false);
    cache.remember(key, file, [file, helper]);
    expect(StrategyTypeCache.open({ PERPBOT_CACHE_DIR: join(root, 'cache-a') }).passed(key)).toBe(true);
    // The helper changes (size and time): the pass no longer holds.
    writeFileSync(helper, 'export const n = 22;\n');
    utimesSync(helper, new Date(), new Date(Date.now() + 5_000));
    expect(cache.passed(key)).toBe(false);
  });

  it("keys on the module's text and on where its imports lead, not on where it is", () => {
    const cache = StrategyTypeCache.open({ PERPBOT_CACHE_DIR: join(root, 'cache-b') });
    const b = project('b');
    const c = project('c');
    // Same text, but './helper.js' is another file in each project.
    expect(cache.keyOf(b.file)).not.toBe(cache.keyOf(c.file));
    const reexport = (dir: string) => {
      mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, dir, 'probe.ts'), `export { default } from ${JSON.stringify(b.file)};\n`);
      return join(root, dir, 'probe.ts');
    };
    // Same text, same absolute target: one key wherever the file is.
    expect(cache.keyOf(reexport('d'))).toBe(cache.keyOf(reexport('e')));
    writeFileSync(join(root, 'e', 'probe.ts'), `export { default as strategy } from ${JSON.stringify(b.file)};\n`);
    expect(cache.keyOf(join(root, 'd', 'probe.ts'))).not.toBe(cache.keyOf(join(root, 'e', 'probe.ts')));
  });

  it('keeps one pass for a re-export written afresh in each folder, until what it re-exports changes', () => {
    const cache = StrategyTypeCache.open({ PERPBOT_CACHE_DIR: join(root, 'cache-g') });
    const target = project('g');
    const reexport = (dir: string): string => {
      mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, dir, 'probe.ts'), `export { default } from ${JSON.stringify(target.file)};\n`);
      return join(root, dir, 'probe.ts');
    };
    const first = reexport('run-1');
    const key = cache.keyOf(first)!;
    cache.remember(key, first, [first, target.file, target.helper]);
    // The first run's folder is gone; the next run writes the same re-export elsewhere.
    rmSync(join(root, 'run-1'), { recursive: true });
    const second = reexport('run-2');
    expect(cache.keyOf(second)).toBe(key);
    expect(cache.passed(key)).toBe(true);
    // A file the re-exported module reads changes: checked again.
    writeFileSync(target.helper, 'export const n = 333;\n');
    utimesSync(target.helper, new Date(), new Date(Date.now() + 5_000));
    expect(cache.passed(key)).toBe(false);
  });

  it('keys on the package.json and the Node types that apply where the module is', () => {
    const cache = StrategyTypeCache.open({ PERPBOT_CACHE_DIR: join(root, 'cache-h') });
    const text = 'export default 1;\n';
    for (const dir of ['h/plain', 'h/typed', 'h/module', 'h/nodeTypes']) {
      mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, dir, 'probe.ts'), text);
    }
    writeFileSync(join(root, 'h', 'module', 'package.json'), '{ "type": "module" }\n');
    mkdirSync(join(root, 'h', 'nodeTypes', 'node_modules', '@types', 'node'), { recursive: true });
    const keys = ['plain', 'module', 'nodeTypes'].map((d) => cache.keyOf(join(root, 'h', d, 'probe.ts')));
    expect(new Set(keys).size).toBe(3);
    expect(cache.keyOf(join(root, 'h', 'typed', 'probe.ts'))).toBe(keys[0]);
  });

  it('is no cache, and no error, where it cannot write', () => {
    writeFileSync(join(root, 'not-a-dir'), '');
    const cache = StrategyTypeCache.open({ PERPBOT_CACHE_DIR: join(root, 'not-a-dir') });
    const { file, helper } = project('f');
    const key = cache.keyOf(file)!;
    expect(() => cache.remember(key, file, [file, helper])).not.toThrow();
    expect(cache.passed(key)).toBe(false);
    expect(StrategyTypeCache.open({ PERPBOT_CACHE_DIR: 'relative/dir' }).keyOf(file)).toBeDefined();
  });
});
