import { dirname } from 'node:path';
import ts from 'typescript';

export interface TypeCheckResult {
  readonly ok: boolean;
  /** Formatted diagnostics, one per problem (file:line:col - message). */
  readonly problems: readonly string[];
  /** The tsconfig.json used, when one was found. */
  readonly tsconfig?: string;
  readonly typescriptVersion: string;
}

/**
 * Strict settings for a strategy without a tsconfig.json of its own: ES modules resolved as a
 * bundler does (package `exports` with their `types`), no Node types needed.
 */
const DEFAULT_OPTIONS: ts.CompilerOptions = {
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

/** Type-checks one file (and what it imports) with the nearest tsconfig.json, or strict defaults. */
export function typeCheckStrategy(file: string): TypeCheckResult {
  const tsconfig = ts.findConfigFile(dirname(file), (path) => ts.sys.fileExists(path));
  let options = DEFAULT_OPTIONS;
  if (tsconfig !== undefined) {
    const read = ts.readConfigFile(tsconfig, (path) => ts.sys.readFile(path));
    if (read.error !== undefined)
      return { ok: false, problems: [format([read.error])], tsconfig, typescriptVersion: ts.version };
    options = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(tsconfig)).options;
  }
  const program = ts.createProgram({ rootNames: [file], options: { ...options, noEmit: true, incremental: false } });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  return {
    ok: diagnostics.length === 0,
    problems: diagnostics.map((d) => format([d]).trimEnd()),
    ...(tsconfig === undefined ? {} : { tsconfig }),
    typescriptVersion: ts.version,
  };
}

function format(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  });
}
