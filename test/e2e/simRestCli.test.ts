import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm run sim', () => {
  it('prints both URLs on its first line, serves REST, and stops cleanly on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/sim/cli.ts', '--port', '0', '--seed', '5', '--block-ms', '100'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const lines = createInterface({ input: child.stdout });
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
      });
      const match = /^perpbot-sim REST (http:\/\/127\.0\.0\.1:(\d+)) WS (ws:\/\/127\.0\.0\.1:(\d+)\/ws)$/.exec(first);
      expect(match).not.toBeNull();
      expect(match?.[2]).toBe(match?.[4]);
      const domain = await fetch(`${match?.[1]}/v1/auth/eip712-domain`);
      expect(domain.status).toBe(200);
      const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
