import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface Asset {
  readonly contentType: string;
  readonly body: Buffer;
}

const require = createRequire(import.meta.url);
const own = (name: string): string => fileURLToPath(new URL(`./dashboard/${name}`, import.meta.url));
/** The palette and layout the dashboard shares with the replay page. */
const THEME = fileURLToPath(new URL('../theme.css', import.meta.url));

/**
 * The dashboard's files, by the path they are served at. The chart library is served from
 * node_modules by the bot itself: no CDN, so the page works on a machine without internet
 * access, and what runs in the browser is the exact version in package-lock.json.
 */
const ASSETS: Readonly<Record<string, { readonly file: () => string; readonly contentType: string }>> = {
  '/': { file: () => own('index.html'), contentType: 'text/html; charset=utf-8' },
  '/assets/dashboard.js': { file: () => own('dashboard.js'), contentType: 'text/javascript; charset=utf-8' },
  '/assets/dom.js': { file: () => own('dom.js'), contentType: 'text/javascript; charset=utf-8' },
  '/assets/protection.js': { file: () => own('protection.js'), contentType: 'text/javascript; charset=utf-8' },
  '/assets/theme.css': { file: () => THEME, contentType: 'text/css; charset=utf-8' },
  '/assets/dashboard.css': { file: () => own('dashboard.css'), contentType: 'text/css; charset=utf-8' },
  '/assets/uPlot.iife.min.js': {
    file: () => require.resolve('uplot/dist/uPlot.iife.min.js'),
    contentType: 'text/javascript; charset=utf-8',
  },
  '/assets/uPlot.min.css': {
    file: () => require.resolve('uplot/dist/uPlot.min.css'),
    contentType: 'text/css; charset=utf-8',
  },
};

const cache = new Map<string, Promise<Asset>>();

/** The asset served at `path`, read once; undefined for any other path. */
export function dashboardAsset(path: string): Promise<Asset> | undefined {
  const entry = ASSETS[path];
  if (entry === undefined) return undefined;
  let loaded = cache.get(path);
  if (loaded === undefined) {
    loaded = readFile(entry.file()).then((body) => ({ contentType: entry.contentType, body }));
    // A failed read is tried again on the next request rather than cached.
    loaded.catch(() => cache.delete(path));
    cache.set(path, loaded);
  }
  return loaded;
}
