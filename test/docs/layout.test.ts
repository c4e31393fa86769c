import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** CONTRIBUTING.md's Layout tables name every folder of `src/` and every sub-folder of its layers. */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const folders = (path: string) =>
  readdirSync(join(ROOT, path), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
const layout = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8').split('## Layout')[1]?.split('\n## ')[0] ?? '';

describe('the Layout section of CONTRIBUTING.md', () => {
  it.each(folders('src'))('names src/%s and each of its sub-folders', (layer) => {
    expect(layout).toContain(`\`src/${layer}\``);
    for (const sub of folders(join('src', layer))) expect(layout, `src/${layer}/${sub}`).toContain(`\`${sub}/\``);
  });
});
