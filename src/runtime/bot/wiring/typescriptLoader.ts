/**
 * Strategies are TypeScript modules; perpbot itself runs as compiled JavaScript when installed as
 * a package. Before the first `.ts` strategy is imported, tsx's loader is registered in this
 * process (tsx is a dependency for exactly this: the user's strategy needs no build step). When
 * perpbot runs from its TypeScript sources (a repository checkout, `node --import tsx`), a loader
 * is already there and nothing is registered.
 */
let registered: Promise<void> | undefined;

export function needsTypeScriptLoader(modulePath: string): boolean {
  return /\.(?:ts|mts|cts)$/.test(modulePath) && !import.meta.url.endsWith('.ts');
}

/** Registers tsx's ESM and CommonJS hooks once per process. */
export function ensureTypeScriptLoader(): Promise<void> {
  // A variable specifier: tsx's root export is a side-effect loader without type declarations.
  const tsx = 'tsx';
  registered ??= import(tsx).then(() => undefined);
  return registered;
}

/**
 * A module's default export, also when a TypeScript file was compiled as CommonJS (a directory
 * whose package.json does not say `"type": "module"`): `import()` then yields the whole
 * `module.exports` as default, with the real default under it.
 */
export function defaultExportOf(module: Record<string, unknown>): unknown {
  const candidate = module['default'];
  if (
    typeof candidate === 'object' &&
    candidate !== null &&
    (candidate as Record<string, unknown>)['__esModule'] === true
  ) {
    return (candidate as Record<string, unknown>)['default'];
  }
  return candidate;
}
