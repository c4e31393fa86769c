import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../e2e/support/spawnPerpbot.js';

const read = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');

/** The dependencies whose install scripts npm would run, by the lockfile. */
function withInstallScripts(): string[] {
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript === true)
    .map(([path]) => path.replace(/^.*node_modules\//, ''))
    .sort();
}

const npmVersion = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
const [major = 0, minor = 0] = npmVersion.split('.').map(Number);
const npmReadsAllowScripts = major > 11 || (major === 11 && minor >= 16);

describe('install scripts: the allowlist is real', () => {
  it('lists in allowScripts exactly the dependencies with install scripts, each explained in the README', () => {
    const allow = (JSON.parse(read('package.json')) as { allowScripts: Record<string, boolean> }).allowScripts;
    expect(Object.keys(allow).sort()).toEqual(withInstallScripts());
    expect(withInstallScripts()).toEqual(['better-sqlite3', 'esbuild', 'keccak', 'secp256k1']);
    const readme = read('README.md');
    for (const [name, allowed] of Object.entries(allow))
      expect(readme).toMatch(new RegExp(`\\n\\| ${name}( \\(.*?\\))? \\| .* \\| ${allowed ? 'yes' : 'no'} \\| `));
  });

  it('makes an unreviewed install script fail the install (.npmrc strict-allow-scripts)', () => {
    expect(read('.npmrc')).toMatch(/^strict-allow-scripts=true$/m);
  });

  it.runIf(npmReadsAllowScripts)(
    `npm ${npmVersion} with this project's policy refuses a dependency whose install script is not listed, and runs none of it`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'perpbot-allow-scripts-'));
      try {
        mkdirSync(join(dir, 'scripted'));
        writeFileSync(
          join(dir, 'scripted', 'package.json'),
          JSON.stringify({
            name: 'scripted',
            version: '1.0.0',
            scripts: { install: "node -e \"require('fs').writeFileSync('ran', 'x')\"" },
          }),
        );
        const allowScripts = (JSON.parse(read('package.json')) as { allowScripts: object }).allowScripts;
        writeFileSync(
          join(dir, 'package.json'),
          JSON.stringify({
            name: 'p',
            version: '1.0.0',
            private: true,
            dependencies: { scripted: 'file:./scripted' },
            allowScripts,
          }),
        );
        copyFileSync(join(REPO_ROOT, '.npmrc'), join(dir, '.npmrc'));
        const run = await promisify(execFile)('npm', ['install', '--offline', '--no-audit', '--no-fund'], {
          cwd: dir,
        }).then(
          () => ({ code: 0, stderr: '' }),
          (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
        );
        expect(run.code).not.toBe(0);
        expect(run.stderr).toContain('ESTRICTALLOWSCRIPTS');
        expect(run.stderr).toContain('scripted@1.0.0');
        expect(existsSync(join(dir, 'scripted', 'ran'))).toBe(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
