import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config/loadConfig.js';
import { requireBinary } from './support/promtool.js';

/**
 * The systemd units: the template deploy/systemd/perpbot@.service (one instance per bot) and the
 * single docs/perpbot.service pass `systemd-analyze verify` (Debian's systemd, which .ci/run
 * installs), and the template agrees with the example instance config beside it.
 */
const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const TEMPLATE = join(ROOT, 'deploy', 'systemd', 'perpbot@.service');
const dir = mkdtempSync(join(tmpdir(), 'perpbot-units-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function verify(unit: string): Promise<{ code: number; output: string }> {
  requireBinary('/usr/bin/systemd-analyze', 'systemd');
  return new Promise((done) => {
    execFile('/usr/bin/systemd-analyze', ['verify', '--man=no', unit], { timeout: 30_000 }, (error, stdout, stderr) =>
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, output: stdout + stderr }),
    );
  });
}

const setting = (unit: string, key: string): string | undefined => new RegExp(`^${key}=(.+)$`, 'm').exec(unit)?.[1];

describe('the systemd units', () => {
  it('perpbot@.service verifies as an instance, perpbot@desk-a', async () => {
    copyFileSync(TEMPLATE, join(dir, 'perpbot@.service'));
    const run = await verify(join(dir, 'perpbot@desk-a.service'));
    expect(run.output).toBe('');
    expect(run.code).toBe(0);
  });

  it('docs/perpbot.service verifies', async () => {
    const run = await verify(join(ROOT, 'docs', 'perpbot.service'));
    expect(run.output).toBe('');
    expect(run.code).toBe(0);
  });

  it('and the check is not blind: a misspelt setting is reported', async () => {
    const broken = readFileSync(TEMPLATE, 'utf8').replace('Restart=on-failure', 'Restart=on-faliure');
    writeFileSync(join(dir, 'broken@.service'), broken);
    const run = await verify(join(dir, 'broken@desk-a.service'));
    expect(run.output).toContain('Failed to parse service restart specifier');
  });

  it("starts perpbot itself with the instance's config, its journal in the instance's state directory", async () => {
    const unit = readFileSync(TEMPLATE, 'utf8');
    const exec = setting(unit, 'ExecStart') ?? '';
    expect(exec).toMatch(
      /^\/usr\/bin\/node \S+\/node_modules\/perpbot\/bin\/perpbot\.js start --config \/etc\/perpbot\/%i\.yaml$/,
    );
    expect(setting(unit, 'EnvironmentFile')).toBe('/etc/perpbot/%i.env');
    expect(setting(unit, 'StateDirectory')).toBe('perpbot/%i');
    expect(setting(unit, 'KillSignal')).toBe('SIGTERM');
    expect(setting(unit, 'Restart')).toBe('on-failure');
    // The example instance: what perpbot@desk-a reads, accepted by perpbot's loader.
    const config = await loadConfig({
      path: join(ROOT, 'deploy', 'systemd', 'desk-a.yaml'),
      env: {
        PERPBOT_KEY_DIR: '/etc/perpbot/keys/desk-a',
        PERPBOT_REST_URL: 'https://venue.invalid',
        PERPBOT_WS_URL: 'wss://venue.invalid/ws',
      },
    });
    expect(posix.dirname(config.journal.path)).toBe('/var/lib/perpbot/desk-a');
    expect(config.control?.port).toBeGreaterThan(0);
    expect(Number(setting(unit, 'TimeoutStopSec')) * 1000).toBeGreaterThan(config.shutdown.timeout_ms);
  });
});
