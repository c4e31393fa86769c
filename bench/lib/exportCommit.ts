import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The files of `commit` of the repository at `root`, exported with `git archive` into `into/base`
 * beside `root`'s node_modules (linked, not installed): a tree to run a base commit's code from.
 */
export function exportCommit(root: string, commit: string, into: string): string {
  const dir = join(into, 'base');
  mkdirSync(dir);
  const archive = execFileSync('git', ['archive', commit], { cwd: root, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}
