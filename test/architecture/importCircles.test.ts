import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cruise, type ICruiseResult, type IModule } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * No import circle in src/, read from the dependency graph dependency-cruiser builds (type-only
 * imports count: a type shared both ways belongs in the lower file). Beside it, two folder-level
 * directions of issue 35 that are not yet met everywhere, held where they are so they only shrink:
 * the runtime's folders that still import each other both ways, and what the test kit takes from
 * the runtime.
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** The graph of every module under `baseDir/paths`, with paths relative to `baseDir`. */
async function graph(baseDir: string, paths: string[]): Promise<IModule[]> {
  const { output } = await cruise(paths, {
    baseDir,
    tsPreCompilationDeps: true,
    exclude: { path: 'node_modules' },
    doNotFollow: { path: 'node_modules' },
  });
  return (output as ICruiseResult).modules;
}

/** Each circle once, as `a.ts -> b.ts -> a.ts`, starting from the module that reported it. */
function circles(modules: readonly IModule[]): string[] {
  const found = new Set<string>();
  for (const m of modules)
    for (const d of m.dependencies)
      if (d.circular) found.add([m.source, ...(d.cycle ?? []).map((c) => c.name)].join(' -> '));
  return [...found].sort();
}

/** `src/runtime/<folder>` of a module, or undefined outside the runtime's sub-folders. */
function runtimeFolder(path: string): string | undefined {
  const parts = path.split('/');
  return parts[0] === 'src' && parts[1] === 'runtime' && parts.length > 3 ? parts[2] : undefined;
}

function edges(modules: readonly IModule[]): { from: string; to: string }[] {
  return modules.flatMap((m) =>
    m.dependencies.filter((d) => d.resolved.startsWith('src/')).map((d) => ({ from: m.source, to: d.resolved })),
  );
}

/** Pairs of runtime folders each of which imports the other, as `a <-> b` (a before b). */
function runtimeFoldersBothWays(modules: readonly IModule[]): string[] {
  const directed = new Set<string>();
  for (const { from, to } of edges(modules)) {
    const a = runtimeFolder(from);
    const b = runtimeFolder(to);
    if (a !== undefined && b !== undefined && a !== b) directed.add(`${a} -> ${b}`);
  }
  return [...directed]
    .map((e) => e.split(' -> ') as [string, string])
    .filter(([a, b]) => a < b && directed.has(`${b} -> ${a}`))
    .map(([a, b]) => `${a} <-> ${b}`)
    .sort();
}

let modules: IModule[];
beforeAll(async () => {
  modules = (await graph(ROOT, ['src'])).filter((m) => m.source.startsWith('src/'));
}, 60_000);

describe('imports in src/', () => {
  it('every relative import resolves to a file the graph holds', () => {
    expect(modules.length).toBeGreaterThan(300);
    const unresolved = modules.flatMap((m) =>
      m.dependencies
        .filter((d) => d.couldNotResolve && d.module.startsWith('.'))
        .map((d) => `${m.source}: ${d.module}`),
    );
    expect(unresolved).toEqual([]);
  });

  it('form no circle', () => {
    expect(circles(modules)).toEqual([]);
  });

  it('the check finds a circle, a type-only one too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpbot-circle-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = { b?: B };\n");
      writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.js';\nexport type B = { a?: A };\n");
      writeFileSync(join(dir, 'c.ts'), "import type { A } from './a.js';\nexport type C = A;\n");
      const found = circles(await graph(dir, ['.']));
      expect(found).toHaveLength(2);
      expect(found.every((c) => /a\.ts -> .*b\.ts -> .*a\.ts|b\.ts -> .*a\.ts -> .*b\.ts/.test(c))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('no runtime folder imports another both ways', () => {
    expect(runtimeFoldersBothWays(modules)).toEqual([]);
  });

  it('the test kit imports nothing of the runtime (it runs the in-process bot, src/inProcess)', () => {
    const kit = edges(modules).filter(({ from }) => from.startsWith('src/testing/'));
    expect(kit.map(({ to }) => to).filter((to) => to.startsWith('src/inProcess/')).length).toBeGreaterThan(0);
    expect(kit.filter(({ to }) => to.startsWith('src/runtime/'))).toEqual([]);
  });
});
