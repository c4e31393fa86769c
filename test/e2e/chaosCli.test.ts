import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { INVARIANT_IDS } from '../../src/runtime/diagnostics/chaos/audit/invariant.js';
import type { ChaosReport } from '../../src/runtime/diagnostics/chaos/chaosReport.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** `perpbot chaos ...` as a process (the compiled CLI: test/e2e/support/compiledCli.ts). */
function perpbot(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PERPBOT_')));
  const child = spawn(process.execPath, [inject('perpbotMain'), ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.once('close', (code) => done({ code, stdout, stderr })));
}

describe('perpbot chaos (its command line spawned, default config and faults)', () => {
  it(
    'runs the strategies under faults with a SIGKILL and restart half-way, and every invariant of the audit holds',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'chaos-e2e-'));
      dirs.push(dir);
      const jsonPath = join(dir, 'report.json');
      // The suite's short version: 21 s of trading with a drop every 8 s, so the kill, the restart and
      // at least two reconnects all happen; the whole test stays near 30 s. The suite's other files share
      // the two cores, so reconnects are held to 10 s here; the 2 s goal and the default faults are
      // checked by the long run (`perpbot chaos --minutes 10`, README), which has the machine.
      const run = await perpbot([
        'chaos',
        '--minutes',
        '0.35',
        '--ws-drop-every-ms',
        '8000',
        '--max-reconnect-ms',
        '10000',
        // The account registered at once (not a fault: the simulator's 2 s deposit-to-registered lag
        // held the set-up 3.6 s before the bot's first start, none of it under faults).
        '--registration-lag-ms',
        '0',
        '--json',
        jsonPath,
        '--dir',
        join(dir, 'run'),
      ]);
      const report = JSON.parse(await readFile(jsonPath, 'utf8')) as ChaosReport;

      expect(report.invariants.map((i) => i.id)).toEqual([...INVARIANT_IDS]);
      for (const invariant of report.invariants) {
        expect(Object.keys(invariant).sort()).toEqual(
          expect.arrayContaining(['data', 'id', 'measured', 'ok', 'title']),
        );
        expect(run.stdout).toMatch(new RegExp(`${invariant.title} +${invariant.ok ? 'PASS' : 'FAIL'} `));
      }
      expect(report).toMatchObject({
        durationMs: 21_000,
        crash: true,
        faults: { errorRate: 0.05, wsDropEveryMs: 8_000 },
        dir: join(dir, 'run'),
        dirKept: true,
      });
      expect(report.ranMs).toBeGreaterThanOrEqual(21_000);
      // The schedule happened: two runs, the first killed by SIGKILL, the second stopped and exiting 0.
      expect(report.totals.botRuns).toBe(2);
      expect(report.invariants.find((i) => i.id === 'process_exits')?.data['exits']).toEqual([
        { run: 1, code: null, signal: 'SIGKILL', planned: 'crash', forced: false },
        { run: 2, code: 0, signal: null, planned: 'stop', forced: false },
      ]);
      // The strategy traded, and the faults were felt. Alone on the machine it places 25 to 35
      // orders; beside the suite's other files on two cores, 10 to 15 (the restart takes longest).
      expect(report.totals.ordersPlaced).toBeGreaterThanOrEqual(6);
      expect(report.totals.reconnects).toBeGreaterThan(0);

      expect(report.invariants.filter((i) => !i.ok).map((i) => `${i.id}: ${i.detail ?? ''}`)).toEqual([]);
      expect(report.ok).toBe(true);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    },
    // About 30 s on an idle machine; the margin is for a loaded one (the settle and stop phases stretch).
    120_000,
  );
});
