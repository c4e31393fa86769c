import type * as TypeScript from 'typescript';

/**
 * The files the strategy type checks of this process parsed (and bound, once a check ran), per
 * set of compiler options, which decide how a file parses and binds. Every check reads the same
 * few megabytes of declarations (Node's types, RxJS, zod, perpbot's API), and parsing and binding
 * them was about half of a check; a later check (`perpbot start` with several strategies, a test
 * run checking its strategies) now parses only what changed, as an editor's TypeScript service
 * does. A file is served from here only while its text is the same.
 */
const parsedByOptions = new Map<string, Map<string, TypeScript.SourceFile>>();

/**
 * tsc's compiler host as tsc itself runs it, JSDoc parsed only where it can carry types (so in
 * JavaScript files, not in TypeScript ones), with files served from the parsed ones above.
 */
export function cachingCompilerHost(
  ts: typeof TypeScript,
  options: TypeScript.CompilerOptions,
): TypeScript.CompilerHost {
  const host = ts.createCompilerHost(options);
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const optionsKey = JSON.stringify(options);
  const parsed = parsedByOptions.get(optionsKey) ?? new Map<string, TypeScript.SourceFile>();
  parsedByOptions.set(optionsKey, parsed);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    let text: string | undefined;
    try {
      text = host.readFile(fileName);
    } catch (error) {
      onError?.((error as Error).message);
      text = '';
    }
    if (text === undefined) return undefined;
    const key = `${parseModeOf(languageVersionOrOptions)} ${fileName}`;
    const known = parsed.get(key);
    if (known?.text === text && shouldCreateNewSourceFile !== true) return known;
    const file = ts.createSourceFile(fileName, text, languageVersionOrOptions);
    parsed.set(key, file);
    return file;
  };
  return host;
}

/** What of a request, besides the options, decides how a file parses: its target and its module format. */
function parseModeOf(request: TypeScript.ScriptTarget | TypeScript.CreateSourceFileOptions): string {
  if (typeof request !== 'object') return String(request);
  return `${request.languageVersion}/${request.impliedNodeFormat}/${request.jsDocParsingMode}`;
}
