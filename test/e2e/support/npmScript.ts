import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

/**
 * An npm script's command line, read from package.json, to spawn without npm itself: npm exits
 * 130 on SIGINT whatever its child does, so a clean-shutdown check must see the child's own exit.
 * `node` is this test's own node binary.
 */
export function npmScript(name: string): { readonly command: string; readonly args: string[] } {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const script = scripts[name];
  if (script === undefined) throw new Error(`package.json has no script named ${name}`);
  const [command = '', ...args] = script.split(/\s+/);
  return { command: command === 'node' ? process.execPath : command, args };
}
