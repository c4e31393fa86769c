import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ConfigError, formatConfigPath } from '../../../src/runtime/config/configError.js';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';

const defaultText = readFileSync(fileURLToPath(new URL('../../../config/default.yaml', import.meta.url)), 'utf8');

/** Every scalar leaf of the default config, except inside the opaque strategy params. */
function leaves(node: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(node)) return node.flatMap((item, i) => leaves(item, [...path, i]));
  if (node !== null && typeof node === 'object') {
    return Object.entries(node).flatMap(([key, item]) => (key === 'params' ? [] : leaves(item, [...path, key])));
  }
  return [path];
}

function setAt(tree: unknown, path: readonly (string | number)[], value: unknown): unknown {
  const copy: unknown = structuredClone(tree);
  let node = copy as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>;
  const last = path.at(-1);
  if (last !== undefined) node[last] = value;
  return copy;
}

describe('config errors (property)', () => {
  const tree: unknown = parse(defaultText);
  const paths = leaves(tree);

  it('covers the whole default config', () => {
    expect(paths.length).toBeGreaterThan(25);
  });

  it('names the path and shows the value for any scalar field given a wrong value', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.array(fc.integer({ min: -9, max: 9 }), { minLength: 1, maxLength: 3 }),
        async (path, wrong) => {
          const error = await loadConfig({ text: stringify(setAt(tree, path, wrong)), env: {} }).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(ConfigError);
          const { problems, message } = error as ConfigError;
          for (const line of message.split('\n')) expect(line).toMatch(/^config error at [^ ]+: \S/);
          const here = problems.find((p) => p.path === formatConfigPath(path));
          expect(here?.problem).toContain(`got ${JSON.stringify(wrong)}`);
        },
      ),
      { numRuns: 150 },
    );
  });
});
