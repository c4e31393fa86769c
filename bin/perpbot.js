#!/usr/bin/env node
// The `perpbot` command. Installed from the package, it runs the compiled CLI (dist/) in this very
// process: the exit code and the signals are the bot's own. In a repository checkout (src/ present,
// maybe no build), it runs the TypeScript CLI with tsx's loader in a child process instead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sourceMain = join(root, 'src/runtime/cli/main.ts');

if (!existsSync(sourceMain)) {
  // The package: strategies written in TypeScript are loaded through tsx when they are imported.
  await import(pathToFileURL(join(root, 'dist/runtime/cli/main.js')).href);
} else {
  // The loader is resolved from this package, not from the directory perpbot runs in.
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsxLoader, sourceMain, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  // A signal sent to this process alone (a service manager's SIGTERM, `kill -INT <pid>`) must still
  // reach the bot so it can shut down cleanly; the CLI treats a burst of one signal as one request.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) =>
    process.exit(code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0))),
  );
}
