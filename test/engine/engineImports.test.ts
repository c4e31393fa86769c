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
