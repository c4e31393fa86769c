import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/spawnPerpbot.js';

/**
 * `node bin/perpbot.js` in a repository checkout, as `npx perpbot` runs there: it starts the CLI
 * from the TypeScript sources with tsx's loader in a child process, so the child's exit code and
 * the signals sent to the parent alone must pass through. (The other e2e files spawn the compiled
 * CLI; the package check runs bin/perpbot.js as installed.)
 */
const BIN = join(REPO_ROOT, 'bin', 'perpbot.js');

function startBin(args: readonly string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

describe('bin/perpbot.js in a checkout', () => {
  it("passes the CLI's exit code and message through", async () => {
    const run = startBin(['no-such-command']);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain('perpbot: unknown command "no-such-command"');
  });

  it('forwards a SIGTERM sent to it alone, and the CLI stops cleanly (exit 0)', async () => {
    const run = startBin(['sim', '--port', '0']);
    for (let i = 0; i < 300 && !run.stdout().includes('perpbot-sim REST '); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(run.stdout()).toMatch(/^perpbot-sim REST http:\/\/127\.0\.0\.1:\d+ WS ws:\/\/127\.0\.0\.1:\d+\/ws$/m);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toContain('perpbot-sim stopped');
  }, 45_000);
});
