#!/usr/bin/env node
// The package build (`npm run build`, and `prepack` before `npm pack` / `npm publish`):
// - src/ compiled to dist/ as JavaScript with type declarations (tsconfig.build.json), so the
//   installed runtime needs no TypeScript loader of its own;
// - every other file under src/ (the dashboard's page, script and styles; the replay page's script
//   and styles, which renderReplayHtml inlines) copied beside the compiled code, at the same path:
//   the runtime reads them next to its own module (new URL('./dashboard/index.html',
//   import.meta.url)), and tsc copies nothing but code;
// - the example strategies copied to dist/examples/strategies/ as TypeScript, importing
//   `perpbot/strategy` instead of the repository's ../src/strategy/index.js.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
  cwd: root,
});

const src = join(root, 'src');
const assets = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && !/\.[cm]?ts$/.test(entry.name))
  .map((entry) => relative(src, join(entry.parentPath, entry.name)));
for (const asset of assets) cpSync(join(src, asset), join(dist, asset));

const examples = join(dist, 'examples', 'strategies');
mkdirSync(examples, { recursive: true });
const ENTRY = /(['"])\.\.\/src\/strategy\/index\.js\1/g;
for (const name of readdirSync(join(root, 'strategies')).filter((n) => n.endsWith('.ts'))) {
  const text = readFileSync(join(root, 'strategies', name), 'utf8').replace(ENTRY, "'perpbot/strategy'");
  if (/from\s+['"]\.\.?\//.test(text))
    throw new Error(
      `strategies/${name} imports a relative path other than ../src/strategy/index.js: the packaged copy could not resolve it`,
    );
  writeFileSync(join(examples, name), text);
}
console.log(
  `perpbot: built dist/ with ${assets.length} files beside the code (${assets.join(', ')}) and ${readdirSync(examples).length} example strategies`,
);
