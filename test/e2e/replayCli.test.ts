import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayReport } from '../../src/runtime/replay/replayReport.js';
import { recordSimInProcess } from './support/recordSimInProcess.js';
import { REPO_ROOT, spawnPerpbot } from './support/spawnPerpbot.js';

/**
 * `perpbot replay` as a user runs it: two minutes of a running simulator recorded by the recorder
 * (in virtual time, so it takes a second), then the CLI spawned with the bundled market maker and
 * the default profile's config: it reports fills, a second replay writes the same bytes, and the
 * page it writes draws in headless Chromium.
 */
describe('perpbot replay (spawned)', () => {
  let dir: string;
  let rec: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'perpbot-replay-'));
    rec = join(dir, 'recording');
    const recorded = await recordSimInProcess({ dir: rec, markets: [1], minutes: 2, seed: 3, blockMs: 250 });
    expect(recorded.frames).toBeGreaterThan(400);
  }, 60_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('replays the recording with the market maker: a report with fills, byte-identical twice', async () => {
    const first = await spawnPerpbot(['replay', rec, '--config', 'config/default.yaml', '--out', join(dir, 'a')]);
    // Warnings are the strategy's (a post-only quote the moving book refused); nothing failed.
    expect(first.stderr).not.toMatch(/"level":(50|60)|failure/);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/replayed \d+ frames .* real time/);
    const text = await readFile(join(dir, 'a', 'report.json'), 'utf8');
    const report = JSON.parse(text) as ReplayReport;
    expect(report.recording.markets).toEqual([1]);
    expect(report.recording.endMs - report.recording.startMs).toBeGreaterThan(110_000);
    expect(report.strategies).toEqual([
      { name: 'market-maker', module: 'strategies/marketMaker.ts', markets: [1], quoteUptime: [expect.anything()] },
    ]);
    // The replay measures quote uptime from the engine's events as a live run does.
    const [uptime] = report.strategies[0]!.quoteUptime;
    expect(uptime).toMatchObject({ marketId: 1 });
    expect(uptime!.uptime).toBeGreaterThan(0.5);
    expect(uptime!.uptime).toBeLessThanOrEqual(1);
    expect(uptime!.requotes).toBeGreaterThan(0);
    expect(report.totals.orders).toBeGreaterThan(0);
    expect(report.totals.fills).toBeGreaterThan(0);
    expect(report.series.fills.length).toBe(report.totals.fills);
    expect(report.series.fills.every((f) => f.liquidity === 'maker')).toBe(true);
    expect(report.series.equity.length).toBeGreaterThan(100);
    expect(report.series.price.length).toBeGreaterThan(100);

    const second = await spawnPerpbot(['replay', rec, '--config', 'config/default.yaml', '--out', join(dir, 'b')]);
    expect(second.code).toBe(0);
    expect(await readFile(join(dir, 'b', 'report.json'), 'utf8')).toBe(text);
    const page = await readFile(join(dir, 'a', 'report.html'), 'utf8');
    expect(await readFile(join(dir, 'b', 'report.html'), 'utf8')).toBe(page);

    // The page the replay wrote, opened offline in headless Chromium by the tool that makes docs/replay.png:
    // it fails on a page error, a request for anything outside the file, or a plot that did not draw.
    const shot = join(dir, 'replay.png');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(REPO_ROOT, 'tools', 'screenshotReplay.mjs'), join(dir, 'a', 'report.html'), shot],
      { cwd: REPO_ROOT },
    );
    expect(stdout).toContain('3 of 3 plots drawn');
    expect((await readFile(shot)).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  }, 150_000);
});
