import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers point one way: core → protocol → venue → engine → strategy → journal → inProcess → runtime.
 * The simulator uses core, protocol and the venue's schemas only, never the engine. inProcess is
 * the bot in one process on the simulator (the in-process venue, its channels and sender, virtual
 * time): the test kit and the replay both run it, so it uses the simulator and every layer below
 * it, never the runtime. The test kit (src/testing) uses inProcess and the layers below, never the
 * runtime, and is used by nothing in src/. The journal is the order model's persistence: it records
 * what the engine's model emits and keeps the strategies' storage, so it sits above the strategy
 * layer and below what runs a bot. This test reads every import in src/ and strategies/ and fails
 * on one that points the wrong way.
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const SRC = join(ROOT, 'src');

const ORDER = ['core', 'protocol', 'venue', 'engine', 'strategy', 'journal', 'inProcess', 'runtime'] as const;
type Layer = (typeof ORDER)[number] | 'sim' | 'testing' | 'index';

function layerOf(file: string): Layer | 'strategies' | undefined {
  const rel = relative(ROOT, file).split('/');
  if (rel[0] === 'strategies') return 'strategies';
  if (rel[0] !== 'src') return undefined;
  if (rel.length === 2) return 'index';
  return rel[1] as Layer;
}

function allowed(from: Layer | 'strategies', to: string): boolean {
  const target = relative(SRC, to).split('/');
  const toLayer = target.length === 1 ? 'index' : (target[0] as Layer);
  if (from === 'index') return true;
  // Example strategies use only the public entry (what `perpbot/strategy` is in the package).
  if (from === 'strategies') return target.join('/').replace(/\.(js|ts)$/, '') === 'strategy/index';
  if (from === 'sim') {
    return (
      toLayer === 'sim' ||
      toLayer === 'core' ||
      toLayer === 'protocol' ||
      (toLayer === 'venue' && target[1] === 'schemas')
    );
  }
  // The public test kit sits on top of the in-process bot, beside the runtime: nothing in src/ uses it.
  if (from === 'testing') return toLayer !== 'runtime';
  if (toLayer === 'testing') return false;
  if (toLayer === 'sim') return from === 'runtime' || from === 'inProcess';
  const a = ORDER.indexOf(from);
  const b = ORDER.indexOf(toLayer as (typeof ORDER)[number]);
  return a >= 0 && b >= 0 && b <= a;
}

/**
 * The source files under `dir`. Hidden entries are left out: they are no module of ours but scratch
 * copies other tests write beside the strategies for the time they run (strategyCommands'
 * `.strategy-commands-*.ts`), which could vanish between this walk and its read.
 */
function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|mts)$/.test(name)) yield path;
  }
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

describe('layering', () => {
  it('every relative import in src/ and strategies/ points down the layers', () => {
    const violations: string[] = [];
    for (const file of [...sourceFiles(SRC), ...sourceFiles(join(ROOT, 'strategies'))]) {
      const from = layerOf(file);
      if (from === undefined) continue;
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(IMPORT)) {
        const spec = match[1] ?? match[2];
        if (spec === undefined) continue;
        const target = resolve(dirname(file), spec);
        if (!target.startsWith(SRC)) continue;
        if (!allowed(from, target)) violations.push(`${relative(ROOT, file)} imports ${spec}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the rule itself refuses an upward import', () => {
    expect(allowed('protocol', join(SRC, 'engine/engine.js'))).toBe(false);
    expect(allowed('sim', join(SRC, 'engine/intents.js'))).toBe(false);
    expect(allowed('sim', join(SRC, 'venue/rest/restClient.js'))).toBe(false);
    expect(allowed('sim', join(SRC, 'venue/schemas/restOrders.js'))).toBe(true);
    expect(allowed('runtime', join(SRC, 'sim/startSim.js'))).toBe(true);
    expect(allowed('strategies', join(SRC, 'engine/engine.js'))).toBe(false);
    expect(allowed('strategies', join(SRC, 'core/decimal.js'))).toBe(false);
    expect(allowed('strategies', join(SRC, 'strategy/index.js'))).toBe(true);
    expect(allowed('testing', join(SRC, 'strategy/strategyHost.js'))).toBe(true);
    expect(allowed('testing', join(SRC, 'sim/simRuntime.js'))).toBe(true);
    expect(allowed('testing', join(SRC, 'inProcess/inProcessBot.js'))).toBe(true);
    expect(allowed('testing', join(SRC, 'runtime/config/configSchema.js'))).toBe(false);
    expect(allowed('inProcess', join(SRC, 'sim/simRuntime.js'))).toBe(true);
    expect(allowed('inProcess', join(SRC, 'runtime/config/configSchema.js'))).toBe(false);
    expect(allowed('runtime', join(SRC, 'inProcess/inProcessBot.js'))).toBe(true);
    expect(allowed('engine', join(SRC, 'inProcess/inProcessBot.js'))).toBe(false);
    expect(allowed('runtime', join(SRC, 'testing/index.js'))).toBe(false);
    expect(allowed('journal', join(SRC, 'engine/tracking/engineJournal.js'))).toBe(true);
    expect(allowed('engine', join(SRC, 'journal/journal.js'))).toBe(false);
    expect(allowed('journal', join(SRC, 'runtime/operations/control/statusDisplay.js'))).toBe(false);
  });
});
