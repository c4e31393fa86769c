import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const ENGINE = join(SRC, 'engine');
/** Layers the engine may depend on: core → protocol → venue → engine. */
const ALLOWED = new Set(['core', 'protocol', 'venue', 'engine']);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('engine layering', () => {
  it('imports only core, protocol, venue and itself, with .js relative specifiers', () => {
    const offences: string[] = [];
    let checked = 0;
    for (const file of files(ENGINE)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/from '(\.[^']+)'/g)) {
        const specifier = match[1] ?? '';
        checked++;
        const layer = relative(SRC, resolve(dirname(file), specifier)).split(/[\\/]/)[0] ?? '';
        if (!ALLOWED.has(layer)) offences.push(`${relative(SRC, file)} imports ${specifier} (layer ${layer})`);
        if (!specifier.endsWith('.js')) offences.push(`${relative(SRC, file)} imports ${specifier} without .js`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(offences).toEqual([]);
  });
});

/** The engine's folder of a file under src/engine (a top-level file is a folder of its own). */
function folderOf(file: string): string {
  return relative(ENGINE, file).split(/[\\/]/)[0] ?? '';
}

/** Folder -> folders it imports (type-only imports count: a type shared both ways belongs lower). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files(ENGINE)) {
    const from = folderOf(file);
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = resolve(dirname(file), match[1] ?? '');
      if (!target.startsWith(ENGINE + '/')) continue;
      const to = folderOf(target);
      if (to !== from) targets.add(to);
    }
  }
  return graph;
}

/** Every import loop between folders, as `a -> b -> a` (depth-first, each loop reported from where it was found). */
function folderLoops(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const loops: string[] = [];
  const done = new Set<string>();
  const visit = (node: string, path: string[]): void => {
    const at = path.indexOf(node);
    if (at >= 0) {
      loops.push([...path.slice(at), node].join(' -> '));
      return;
    }
    if (done.has(node)) return;
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  for (const node of graph.keys()) visit(node, []);
  return loops;
}

describe('engine structure (issue 35: the engine as a pipeline of stages)', () => {
  it('has no file over 300 lines', () => {
    const long = files(ENGINE)
      .map((file) => ({ file: relative(SRC, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > 300);
    expect(files(ENGINE).length).toBeGreaterThan(50);
    expect(long).toEqual([]);
  });

  it('runs each stage once, in order, each entry from its own folder, and releases in-flight in one place', () => {
    const runStages = readFileSync(join(ENGINE, 'pipeline/runStages.ts'), 'utf8');
    const body = runStages.slice(runStages.search(/export (async )?function runStages\(/));
    const stages = [
      ['checkStage', 'checks/checkStage'],
      ['admissionStage', 'admission/admissionStage'],
      ['nonceStage', 'nonces/nonceStage'],
      ['signStage', 'signing/signAction'],
      ['sendWithPolicy', 'sending/sendWithPolicy'],
      ['trackStage', 'pipeline/trackStage'],
    ] as const;
    const calls = stages.map(([entry]) => [...body.matchAll(new RegExp(`\\b${entry}\\(`, 'g'))].map((m) => m.index));
    expect(calls.map((c) => c.length)).toEqual(stages.map(() => 1));
    const at = calls.map((c) => c[0] ?? -1);
    // The track stage is called first in the text (it takes what the others reached): the others in order.
    const ways = at.slice(0, -1);
    expect([...ways].sort((a, b) => a - b)).toEqual(ways);
    for (const [entry, file] of stages) {
      const from = new RegExp(
        `import \\{[^}]*\\b${entry}\\b[^}]*\\} from '\\.\\.?/(?:\\.\\./)?${file.replace('pipeline/', '')}\\.js'`,
      );
      expect(from.test(runStages), `${entry} from ${file}`).toBe(true);
      expect(statSync(join(ENGINE, `${file}.ts`)).isFile()).toBe(true);
    }
    expect(runStages.match(/\.settled\(\)/g)).toHaveLength(1);
  });

  it('has no import loop between its folders (nothing imports back up)', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(folderLoops(graph)).toEqual([]);
  });

  it('builds "cancelled while queued" in one place', () => {
    const builders = files(ENGINE).filter((file) => /refusal\(\s*'cancelled_queued'/.test(readFileSync(file, 'utf8')));
    expect(builders.map((file) => relative(SRC, file))).toEqual(['engine/intents/cancelledWhileQueued.ts']);
  });
});
