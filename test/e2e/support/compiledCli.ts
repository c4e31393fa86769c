import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compiled CLI's entry (main.js) that the e2e tests spawn. */
    perpbotMain: string;
  }
}

/** The compiled copies of runs that ended without their teardown (a killed vitest). */
function removeOrphans(cache: string): void {
  for (const name of readdirSync(cache)) {
    const pid = /^e2e-cli-(\d+)-/.exec(name)?.[1];
    if (pid !== undefined && !isRunning(Number(pid))) rmSync(join(cache, name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The e2e project's global set-up: src/ compiled to JavaScript once per run (esbuild, the
 * transpiler tsx itself uses, file by file, about a second), so each spawned `perpbot` loads
 * plain modules as the installed package does instead of passing some 500 through tsx's loader
 * (which doubled a command's start-up CPU, and the e2e files spawn about eighty). Strategies stay
 * TypeScript and load through tsx as they do for an installed package. The checkout's own paths
 * keep their tests: cliStart (`npm start`) and binCheckout (bin/perpbot.js).
 */
export default async function compileCli(project: TestProject): Promise<() => void> {
  const cache = join(REPO_ROOT, '.cache');
  mkdirSync(cache, { recursive: true });
  removeOrphans(cache);
  const out = mkdtempSync(join(cache, `e2e-cli-${process.pid}-`));
  const src = join(REPO_ROOT, 'src');
  const files = readdirSync(src, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  await build({
    entryPoints: files.filter((e) => e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name)),
    outdir: join(out, 'src'),
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  // The dashboard's and the replay page's files, read beside the code as in the package.
  for (const asset of files.filter((e) => !e.name.endsWith('.ts')))
    cpSync(join(asset.parentPath, asset.name), join(out, 'src', relative(src, join(asset.parentPath, asset.name))));
  // The bundled default config, found from the package root when perpbot runs outside a checkout.
  symlinkSync(join(REPO_ROOT, 'config'), join(out, 'config'));
  // Its version (the metrics' perpbot_info), read from the package root as in the package.
  symlinkSync(join(REPO_ROOT, 'package.json'), join(out, 'package.json'));
  project.provide('perpbotMain', join(out, 'src', 'runtime', 'cli', 'main.js'));
  return () => rmSync(out, { recursive: true, force: true });
}
