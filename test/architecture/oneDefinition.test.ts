import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The venue's state has one shape and one reader (issue 35): the engine's reconnect, the journal's
 * reconciliation, `perpbot status`, `perpbot reconcile` and the exit report all read the venue
 * through `readVenueSnapshot` into one `VenueSnapshot`, its positions one `VenuePosition`. Two
 * adapters of the same name with two types of the same name were how the reconciliations drifted
 * apart; this test fails on a second declaration of any of them anywhere in src/.
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const SRC = join(ROOT, 'src');
const ONE_EACH = ['VenueSnapshot', 'VenuePosition', 'readVenueSnapshot', 'OrderState', 'applyOrderEvent'];

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

/** Where `name` is declared (an interface, a type, a class, an enum, a function or a const) in `text`. */
function declarations(name: string, text: string): number {
  const declared = new RegExp(
    `^\\s*(?:export\\s+)?(?:declare\\s+)?(?:interface|type|class|enum|(?:async\\s+)?function\\*?|const|let)\\s+${name}\\b`,
    'gm',
  );
  return [...text.matchAll(declared)].length;
}

function declaredIn(name: string): string[] {
  const found: string[] = [];
  for (const file of sources(SRC)) {
    const n = declarations(name, readFileSync(file, 'utf8'));
    for (let i = 0; i < n; i++) found.push(relative(ROOT, file));
  }
  return found;
}

describe('one declaration of each of the venue state and order model names in src/', () => {
  it.each(ONE_EACH)('%s', (name) => {
    expect(declaredIn(name)).toHaveLength(1);
  });

  it('counts a second declaration, and neither an import, a use nor a longer name', () => {
    const sample = [
      "import type { VenueSnapshot } from './venueSnapshot.js';",
      'export interface VenueSnapshot { readonly balance: string }',
      'type VenueSnapshot = { balance: string };',
      'export async function readVenueSnapshot(): Promise<VenueSnapshot> {}',
      'export interface VenueSnapshotReads {}',
      'const s: VenueSnapshot = read();',
    ].join('\n');
    expect(declarations('VenueSnapshot', sample)).toBe(2);
    expect(declarations('readVenueSnapshot', sample)).toBe(1);
  });
});
