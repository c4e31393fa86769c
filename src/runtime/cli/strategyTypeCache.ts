import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, extname, isAbsolute, join, resolve } from 'node:path';

interface CacheFile {
  readonly version: 1;
  readonly entries: Record<
    string,
    { readonly at: number; readonly files: readonly (readonly [string, number, number])[] }
  >;
}

const MAX_ENTRIES = 500;
// An import's specifier: `from '...'`, `import '...'`, `import('...')`.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"\n]+)['"]/g;

/**
 * Strategy modules whose type check passed, so `perpbot start` checks a module again only when it,
 * or a file its check read, changed. The key is the module's text, where each of its imports
 * leads from where it is, the tsconfig.json and package.json that apply, the Node types found
 * from there and the TypeScript version; the entry lists every other file the check read with its
 * size and modification time, all of which must be unchanged. The module itself is not listed:
 * its text is in the key, so the same module in another folder with the same surroundings (a
 * re-export written afresh for each run) is the same pass. Only passes are kept. It lives in
 * $PERPBOT_CACHE_DIR, else $XDG_CACHE_HOME/perpbot, else ~/.cache/perpbot; one that cannot be read
 * or written is no cache (the check runs each time).
 */
export class StrategyTypeCache {
  private constructor(private readonly path: string | undefined) {}

  static open(env: Readonly<Record<string, string | undefined>>): StrategyTypeCache {
    const dir =
      env['PERPBOT_CACHE_DIR'] ??
      (env['XDG_CACHE_HOME'] === undefined ? undefined : join(env['XDG_CACHE_HOME'], 'perpbot')) ??
      join(homedir(), '.cache', 'perpbot');
    return new StrategyTypeCache(isAbsolute(dir) ? join(dir, 'strategy-types.json') : undefined);
  }

  /** The key of `file` (an absolute path) as it is now; undefined when it cannot be read. */
  keyOf(file: string): string | undefined {
    try {
      const text = readFileSync(file, 'utf8');
      const tsconfig = nearest('tsconfig.json', dirname(file));
      const manifest = nearest('package.json', dirname(file));
      return createHash('sha256')
        .update(
          JSON.stringify({
            typescript: typescriptVersion(),
            extension: extname(file),
            tsconfig: tsconfig === undefined ? null : [tsconfig, readFileSync(tsconfig, 'utf8')],
            // Its "type" decides the module format under NodeNext.
            packageJson: manifest === undefined ? null : [manifest, readFileSync(manifest, 'utf8')],
            // Without a tsconfig.json, the check takes Node's types from where the module is.
            nodeTypes: resolveSpecifier('@types/node', dirname(file)),
            imports: [...text.matchAll(IMPORT)].map(([, spec]) => [spec, resolveSpecifier(spec!, dirname(file))]),
            text,
          }),
        )
        .digest('hex');
    } catch {
      return undefined;
    }
  }

  /** True when the check passed for `key` and no file it read has changed since. */
  passed(key: string): boolean {
    const entry = this.read().entries[key];
    return entry !== undefined && entry.files.every(([path, size, mtimeMs]) => sameFile(path, size, mtimeMs));
  }

  /** Keeps a pass of `file`: the other files the check read, as they are now. */
  remember(key: string, file: string, files: readonly string[]): void {
    if (this.path === undefined) return;
    try {
      const stats = files
        .filter((path) => resolve(path) !== resolve(file))
        .map((path) => {
          const s = statSync(path);
          return [path, s.size, s.mtimeMs] as const;
        });
      const entries = { ...this.read().entries, [key]: { at: Date.now(), files: stats } };
      const kept = Object.entries(entries)
        .sort(([, a], [, b]) => b.at - a.at)
        .slice(0, MAX_ENTRIES);
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      // Another bot may write it at the same moment: each writes whole files, the last one wins.
      const temporary = `${this.path}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify({ version: 1, entries: Object.fromEntries(kept) } satisfies CacheFile));
      renameSync(temporary, this.path);
    } catch {
      // No cache: the next start checks again.
    }
  }

  private read(): CacheFile {
    try {
      if (this.path === undefined || !existsSync(this.path)) return { version: 1, entries: {} };
      const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<CacheFile>;
      return parsed.version === 1 && typeof parsed.entries === 'object'
        ? (parsed as CacheFile)
        : { version: 1, entries: {} };
    } catch {
      return { version: 1, entries: {} };
    }
  }
}

function sameFile(path: string, size: number, mtimeMs: number): boolean {
  try {
    const s = statSync(path);
    return s.size === size && s.mtimeMs === mtimeMs;
  } catch {
    return false;
  }
}

function typescriptVersion(): string {
  const manifest = createRequire(import.meta.url).resolve('typescript/package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** The `name` (tsconfig.json, package.json) that applies to a file in `dir`: the nearest one above it. */
function nearest(name: string, dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, name))) return join(at, name);
    if (dirname(at) === at) return undefined;
  }
}

/** Where an import leads from `dir`: the path for a relative or absolute one, the package's folder for a bare one. */
function resolveSpecifier(spec: string, dir: string): string | null {
  if (spec.startsWith('.') || isAbsolute(spec)) return resolve(dir, spec);
  if (spec.startsWith('node:')) return spec;
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec);
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules', name))) return join(at, 'node_modules', name);
    if (dirname(at) === at) return null;
  }
}
