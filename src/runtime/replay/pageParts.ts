import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * What the self-contained report pages (a replay's, a sweep's) are made of: the exact uPlot of
 * package-lock.json and the operator pages' theme, inlined (a page is a file a user opens or mails,
 * with no server and no network), and the escaping their HTML and embedded JSON need.
 */
const require = createRequire(import.meta.url);

export interface SharedPageAssets {
  readonly uplotCss: string;
  readonly uplotJs: string;
  readonly themeCss: string;
}

let shared: SharedPageAssets | undefined;

export function sharedPageAssets(): SharedPageAssets {
  shared ??= {
    uplotCss: inlineable(require.resolve('uplot/dist/uPlot.min.css'), 'style'),
    uplotJs: inlineable(require.resolve('uplot/dist/uPlot.iife.min.js'), 'script'),
    // The palette and layout the pages share with the dashboard.
    themeCss: inlineable(fileURLToPath(new URL('../operations/theme.css', import.meta.url)), 'style'),
  };
  return shared;
}

/** A file's text, refused if it would end its inline element early (the HTML parser does not know JavaScript). */
export function inlineable(file: string, element: 'script' | 'style'): string {
  const text = readFileSync(file, 'utf8');
  if (text.toLowerCase().includes(`</${element}`) || (element === 'script' && text.includes('<!--')))
    throw new Error(
      `${file} contains "</${element}" or "<!--", so it cannot be inlined in a report page's <${element}>: ` +
        'serve it as a file instead, or pin a uPlot version without it',
    );
  return text;
}

/** Text for an HTML text node or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON that a `<script type="application/json">` block holds verbatim: no `<` (so no `</script>` or
 * `<!--` in a strategy's name ends or bends the block), and the line separators some parsers trip on.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export const utc = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.000Z$|Z$/, '');

/** The class that colours a signed decimal: red below zero, green above, none at zero. */
export function signClass(value: string): string {
  if (value.startsWith('-')) return 'neg';
  return /^[+]?0*(\.0*)?$/.test(value) ? '' : 'pos';
}
