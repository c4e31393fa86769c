import { dirname, join, relative, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as TypeScript from 'typescript';
import { cachingCompilerHost } from './parsedSourceFiles.js';

// Required, not imported: TypeScript is CommonJS, and an `import` of it has Node scan all of
// typescript.js (9 MB) for its export names first, about a second of CPU on every check.
const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;

export interface TypeCheckResult {
  readonly ok: boolean;
  /** Formatted diagnostics, one per problem (file:line:col - message). */
  readonly problems: readonly string[];
  /** The tsconfig.json used, when one was found. */
  readonly tsconfig?: string;
  readonly typescriptVersion: string;
  /** Every file the check read (the module, what it imports, declarations): what a cached pass depends on. */
  readonly files: readonly string[];
}

/**
 * Strict settings for a strategy without a tsconfig.json of its own: ES modules resolved as a
 * bundler does (package `exports` with their `types`); Node's own types (console, timers,
 * process) where they can be found (`nodeTypes`), since a strategy runs on Node.
 */
const DEFAULT_OPTIONS: TypeScript.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts'],
  types: [],
  strict: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  allowImportingTsExtensions: true,
  esModuleInterop: true,
};

/**
 * The default settings with Node's types when `@types/node` resolves from the strategy's folder
 * or from perpbot's own (a package project has them through its own dependencies, or not at all).
 */
function withNodeTypes(options: TypeScript.CompilerOptions, from: string): TypeScript.CompilerOptions {
  for (const base of [from, PERPBOT_SOURCES]) {
    try {
      const manifest = createRequire(join(base, 'noop.js')).resolve('@types/node/package.json');
      return { ...options, types: ['node'], typeRoots: [dirname(dirname(manifest))] };
    } catch {
      // Not here: the next place, else without Node's types.
    }
  }
  return options;
}

/** The program of the last check: a second check in the same process reuses its module resolutions. */
let lastProgram: TypeScript.Program | undefined;

/** perpbot's own sources (src/ in the repository, dist/ when installed): checked by perpbot's CI, not here. */
const PERPBOT_SOURCES = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..') + sep;

/**
 * True for a file of perpbot's own: under this copy's sources, or under src/ or dist/ of any
 * folder whose package.json names perpbot (a checkout a strategy imports by path while another
 * copy of perpbot checks it).
 */
function isPerpbotSource(file: string): boolean {
  const path = resolve(file);
  if (path.startsWith(PERPBOT_SOURCES)) return true;
  for (let dir = dirname(path); dirname(dir) !== dir; dir = dirname(dir)) {
    const named = packageNames.get(dir) ?? packageNameIn(dir);
    packageNames.set(dir, named);
    if (named !== undefined) return named === 'perpbot' && /^(?:src|dist)[\\/]/.test(relative(dir, path));
  }
  return false;
}

const packageNames = new Map<string, string | undefined>();

function packageNameIn(dir: string): string | undefined {
  const manifest = join(dir, 'package.json');
  if (!ts.sys.fileExists(manifest)) return undefined;
  try {
    const name: unknown = (JSON.parse(ts.sys.readFile(manifest) ?? '{}') as { name?: unknown }).name;
    return typeof name === 'string' ? name : '';
  } catch {
    return '';
  }
}

/**
 * The problems in the user's own files: the strategy and what it imports of its own. perpbot's
 * sources and declaration files are read for their types but not checked again, so a check takes
 * seconds, not the time to type-check the whole framework.
 */
function userDiagnostics(program: TypeScript.Program): readonly TypeScript.Diagnostic[] {
  const own = program
    .getSourceFiles()
    .filter((f) => !f.isDeclarationFile && !isPerpbotSource(f.fileName))
    .filter((f) => !f.fileName.split(/[\\/]/).includes('node_modules'));
  return [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...own.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
  ];
}

/** Type-checks one file (and what it imports) with the nearest tsconfig.json, or strict defaults. */
export function typeCheckStrategy(file: string): TypeCheckResult {
  const tsconfig = ts.findConfigFile(dirname(file), (path) => ts.sys.fileExists(path));
  let options = withNodeTypes(DEFAULT_OPTIONS, dirname(file));
  if (tsconfig !== undefined) {
    const read = ts.readConfigFile(tsconfig, (path) => ts.sys.readFile(path));
    if (read.error !== undefined)
      return {
        ok: false,
        problems: [format([read.error])],
        tsconfig,
        typescriptVersion: ts.version,
        files: [tsconfig],
      };
    options = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(tsconfig)).options;
  }
  const programOptions = { ...options, noEmit: true, incremental: false };
  const program = ts.createProgram({
    rootNames: [file],
    options: programOptions,
    host: cachingCompilerHost(ts, programOptions),
    ...(lastProgram === undefined ? {} : { oldProgram: lastProgram }),
  });
  lastProgram = program;
  const diagnostics = userDiagnostics(program);
  return {
    ok: diagnostics.length === 0,
    problems: diagnostics.map((d) => format([d]).trimEnd()),
    ...(tsconfig === undefined ? {} : { tsconfig }),
    typescriptVersion: ts.version,
    files: [...(tsconfig === undefined ? [] : [tsconfig]), ...program.getSourceFiles().map((f) => f.fileName)],
  };
}

function format(diagnostics: readonly TypeScript.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  });
}
