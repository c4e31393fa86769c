import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseDocument } from 'yaml';
import { launchChromium } from './support/chromium.js';
import { recordSimInProcess } from './support/recordSimInProcess.js';
import { REPO_ROOT, spawnPerpbot, startPerpbotIn } from './support/spawnPerpbot.js';

/**
 * `perpbot sweep` as a user runs it, on two minutes recorded from the simulator: a 2 x 2 grid of
 * the bundled market maker's params gives four results whose reports are, byte for byte, those of
 * four single `perpbot replay` runs of the same variants; two shards merged give the unsharded
 * study; a sweep killed half-way and started again finishes with the same study, running only what
 * it had not finished; a walk-forward sweep shows each window's in-sample and out-of-sample
 * figures side by side; and on a terminal a progress bar stands under the result lines.
 */
const GRID = 'spread_bps=4,8;requote_bps=3,6';
/** The same grid in the command line the issue names: one --param a param. */
const GRID_PARAMS = ['--param', 'spread_bps=4,8', '--param', 'requote_bps=3,6'];
/** The grid's variants in study order: the first param varies slowest. */
const VARIANTS = [
  { id: 'v1', spread_bps: 4, requote_bps: 3 },
  { id: 'v2', spread_bps: 4, requote_bps: 6 },
  { id: 'v3', spread_bps: 8, requote_bps: 3 },
  { id: 'v4', spread_bps: 8, requote_bps: 6 },
] as const;
/** Train on 40 s, test on the next 20 s, step 40 s: two windows in the recording's two minutes. */
const WALK = ['--train', '40s', '--test', '20s', '--step', '40s'];
/** A test's budget: its CLI runs share the two cores with each other and with the suite's other files. */
const TEST_MS = 180_000;

/** The unsharded, uninterrupted sweep every other run is compared with. */
interface WholeSweep {
  readonly study: string;
  /** What the terminal showed: stderr's lines and progress bar, then stdout's summary. */
  readonly terminal: string;
}

/**
 * The CLI on a pseudo-terminal, as a user at a shell sees it (`script`, util-linux): stdout and
 * stderr are the one terminal, so the run's output is both, in the order they were written.
 */
function perpbotOnTerminal(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PERPBOT_')));
  const command = [process.execPath, inject('perpbotMain'), ...args].map((a) => `'${a}'`).join(' ');
  return promisify(execFile)('script', ['-qec', command, '/dev/null'], { cwd: REPO_ROOT, env, timeout: TEST_MS }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code?: unknown; stdout?: string }) => ({
      code: typeof error.code === 'number' ? error.code : null,
      output: error.stdout ?? '',
    }),
  );
}

// Concurrent: every test reads the one recording (the walk-forward its longer one) and runs CLI
// processes of its own, and each waits for the whole sweep (started once, beside them) only where
// it compares with it. One after another, this file was a minute of processes started in turn.
describe.concurrent('perpbot sweep (spawned)', () => {
  let dir: string;
  let rec: string;
  let whole: Promise<WholeSweep>;

  /**
   * The whole sweep on two workers, as a user runs it at a terminal, in the command line the issue
   * names. (Its progress bar is the last test's; one sweep serves both, a sweep fewer for the file.)
   */
  async function sweepWhole(): Promise<WholeSweep> {
    const config = join(REPO_ROOT, 'config', 'default.yaml');
    const run = await perpbotOnTerminal([
      'sweep',
      rec,
      '--config',
      config,
      ...GRID_PARAMS,
      '--out',
      join(dir, 'whole'),
      '--workers',
      '2',
    ]);
    expect(run.output).not.toMatch(/failure/);
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/swept 4 replay\(s\)/);
    return { study: await readFile(join(dir, 'whole', 'study.jsonl'), 'utf8'), terminal: run.output };
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'perpbot-sweep-'));
    rec = join(dir, 'recording');
    const recorded = await recordSimInProcess({ dir: rec, markets: [1], minutes: 2, seed: 3, blockMs: 250 });
    expect(recorded.frames).toBeGreaterThan(400);
    whole = sweepWhole();
    // Each test that compares awaits it and fails with its error; this keeps it from going unhandled first.
    whole.catch(() => undefined);
  }, 60_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(
    'gives each variant the report a single perpbot replay of it writes, byte for byte',
    async ({ expect }) => {
      const base = await readFile(join(REPO_ROOT, 'config', 'default.yaml'), 'utf8');
      // The four single replays side by side, each with a config of its own.
      const singles = await Promise.all(
        VARIANTS.map(async (v) => {
          const config = parseDocument(base);
          config.setIn(['strategies', 0, 'params', 'spread_bps'], v.spread_bps);
          config.setIn(['strategies', 0, 'params', 'requote_bps'], v.requote_bps);
          const path = join(dir, `${v.id}.yaml`);
          await writeFile(path, config.toString());
          const single = await spawnPerpbot(
            ['replay', rec, '--config', path, '--out', join(dir, `replay-${v.id}`)],
            {},
            TEST_MS,
          );
          expect(single.code, single.stderr).toBe(0);
          return readFile(join(dir, `replay-${v.id}`, 'report.json'), 'utf8');
        }),
      );
      const { study, terminal } = await whole;
      for (const [i, v] of VARIANTS.entries()) {
        const variant = join(dir, 'whole', 'variants', v.id);
        expect(await readFile(join(variant, 'report.json'), 'utf8')).toBe(singles[i]);
        expect(JSON.parse(await readFile(join(variant, 'params.json'), 'utf8'))).toEqual({
          spread_bps: v.spread_bps,
          requote_bps: v.requote_bps,
        });
      }
      const lines = study
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines[0]).toMatchObject({ type: 'study', strategy: 'market-maker', objective: 'net_pnl' });
      expect(lines.slice(1).map((l) => l['job'])).toEqual(VARIANTS.map((v) => `${v.id}/r1/full`));
      // best.yaml is the config with the chosen variant's params, and no sweep section.
      const best = parseDocument(await readFile(join(dir, 'whole', 'best.yaml'), 'utf8'));
      expect(best.has('sweep')).toBe(false);
      const chosen = /chosen: (v\d) /.exec(terminal)?.[1];
      const variant = VARIANTS.find((v) => v.id === chosen)!;
      expect(best.getIn(['strategies', 0, 'params', 'spread_bps'])).toBe(variant.spread_bps);
      expect(best.getIn(['strategies', 0, 'params', 'requote_bps'])).toBe(variant.requote_bps);
    },
    TEST_MS,
  );

  it(
    'two shards merged give the study of the whole sweep, byte for byte, and its page draws offline',
    async ({ expect }) => {
      const [one, two] = await Promise.all(
        ['1/2', '2/2'].map((shard, i) =>
          spawnPerpbot(
            ['sweep', rec, '--params', GRID, '--workers', '1', '--shard', shard, '--out', join(dir, `shard${i + 1}`)],
            {},
            TEST_MS,
          ),
        ),
      );
      expect(one?.code).toBe(0);
      expect(two?.code).toBe(0);
      expect(readdirSync(join(dir, 'shard1', 'variants')).sort()).toEqual(['v1', 'v3']);
      const merged = await spawnPerpbot([
        'sweep',
        'merge',
        join(dir, 'shard1'),
        join(dir, 'shard2'),
        '--out',
        join(dir, 'merged'),
      ]);
      expect(merged.code).toBe(0);
      expect(merged.stdout).toMatch(/merged 2 shard\(s\): 4 results, 4 reports copied/);
      const { study } = await whole;
      expect(await readFile(join(dir, 'merged', 'study.jsonl'), 'utf8')).toBe(study);
      expect(await readFile(join(dir, 'merged', 'best.yaml'), 'utf8')).toBe(
        await readFile(join(dir, 'whole', 'best.yaml'), 'utf8'),
      );
      const shot = join(dir, 'sweep.png');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [join(REPO_ROOT, 'tools', 'screenshotReplay.mjs'), join(dir, 'merged', 'report.html'), shot],
        { cwd: REPO_ROOT },
      );
      expect(stdout).toContain('3 of 3 plots drawn');
      await expectHeatmapOf(join(dir, 'merged', 'report.html'), study);
    },
    TEST_MS,
  );

  it(
    'killed half-way and started again, finishes with the same study and runs no variant twice',
    async ({ expect }) => {
      const out = join(dir, 'killed');
      const args = ['sweep', rec, '--params', GRID, '--workers', '1', '--out', out];
      const first = startPerpbotIn(args, REPO_ROOT, {});
      const studyPath = join(out, 'study.jsonl');
      const results = async (): Promise<string[]> =>
        existsSync(studyPath)
          ? (await readFile(studyPath, 'utf8'))
              .split('\n')
              .filter((l) => l.startsWith('{"type":"result"'))
              .map((l) => (JSON.parse(l) as { job: string }).job)
          : [];
      const deadline = Date.now() + 120_000;
      while ((await results()).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      first.child.kill('SIGKILL');
      await first.exited;
      const before = await results();
      expect(before.length).toBeGreaterThanOrEqual(2);
      expect(before.length).toBeLessThan(4);

      const second = await spawnPerpbot(args, {}, TEST_MS);
      expect(second.code).toBe(0);
      const ranNow = [...second.stderr.matchAll(/\] (v\d\/r1\/full):/g)].map((m) => m[1] ?? '');
      expect(second.stderr).toContain(`${before.length} already in the study, ${4 - before.length} to run`);
      expect(ranNow.filter((job) => before.includes(job))).toEqual([]);
      expect([...before, ...ranNow].sort()).toEqual(VARIANTS.map((v) => `${v.id}/r1/full`));
      expect(await readFile(studyPath, 'utf8')).toBe((await whole).study);
    },
    TEST_MS,
  );

  it(
    'walk-forward: each window ranks on its train span and shows the test span beside',
    async ({ expect }) => {
      const out = join(dir, 'walk');
      const run = await spawnPerpbot(
        // One worker: the windows are what this test is about (the whole sweep above runs on two).
        ['sweep', rec, '--params', 'spread_bps=4,8', ...WALK, '--workers', '1', '--out', out],
        {},
        TEST_MS,
      );
      expect(run.code).toBe(0);
      // Two windows (train 0-40 s, test 40-60 s; train 40-80 s, test 80-100 s), each variant's figures in and out of sample.
      expect(run.stdout).toMatch(/window 1 \(r1 train 0s-40s, test 40s-1m\)/);
      expect(run.stdout).toMatch(/window 2 \(r1 train 40s-80s, test 80s-100s\)/);
      const rows = [
        ...run.stdout.matchAll(/ {2}\d\. (v\d) .*: net_pnl (-?[\d.]+) in sample, (-?[\d.]+) out of sample/g),
      ];
      expect(rows).toHaveLength(4);
      const lines = (await readFile(join(out, 'study.jsonl'), 'utf8')).trim().split('\n');
      const metrics = new Map(
        lines.slice(1).map((l) => {
          const r = JSON.parse(l) as { job: string; metrics: { netPnl: string } };
          return [r.job, r.metrics.netPnl];
        }),
      );
      // The figures beside each other are the train span's and the test span's own replays.
      const [window1] = rows;
      expect(window1?.[2]).toBe(metrics.get(`${window1?.[1]}/r1/0s-40s`));
      expect(window1?.[3]).toBe(metrics.get(`${window1?.[1]}/r1/40s-1m`));
      expect(run.stdout).toMatch(/walk-forward: the picks made net -?[\d.]+ in sample, -?[\d.]+ out of sample/);
      // A variant replayed over several spans keeps one report per span in its folder.
      expect(existsSync(join(out, 'variants', window1![1]!, 'report.r1.0s-40s.json'))).toBe(true);
      const page = await readFile(join(out, 'report.html'), 'utf8');
      expect(page).toContain('data-window="1"');
      expect(page).toContain('data-window="2"');
      expect(page).toContain('out of sample');
    },
    TEST_MS,
  );

  it(
    'on a terminal, a progress bar with the time left stays under the result lines',
    async ({ expect }) => {
      const { terminal } = await whole;
      expect(terminal).toMatch(/\[-{24}\] 0\/4 {2}0% {2}elapsed 0:\d\d {2}ETA --/);
      expect(terminal).toMatch(/\[#{6}-{18}\] 1\/4 {2}25% {2}elapsed \d+:\d\d {2}ETA \d+:\d\d/);
      expect(terminal).toMatch(/\[#{24}\] 4\/4 {2}100%/);
      // The bar is wiped before the summary, which reads as it does off a terminal.
      expect(terminal).toContain('\r\x1b[Kswept 4 replay(s)');
    },
    TEST_MS,
  );
});

/**
 * The heatmap of the objective over the two params, as a browser shows the page: each cell the
 * net PnL of the variant at that point, as the study holds it.
 */
async function expectHeatmapOf(page: string, study: string): Promise<void> {
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    await tab.goto(pathToFileURL(page).href);
    const heatmap = tab.locator('table.heatmap:visible');
    expect(await heatmap.getAttribute('data-x')).toBe('spread_bps');
    const shown = await heatmap
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    const net = new Map(
      study
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l) as { variant: string; metrics: { netPnl: string } })
        .map((r) => [r.variant, r.metrics.netPnl]),
    );
    // Rows requote 3, 6; columns spread 4, 8 (v1 4/3, v2 4/6, v3 8/3, v4 8/6).
    expect(shown).toEqual([
      ['3', net.get('v1'), net.get('v3')],
      ['6', net.get('v2'), net.get('v4')],
    ]);
  } finally {
    await browser.close();
  }
}
