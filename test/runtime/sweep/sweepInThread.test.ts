import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthRecording } from '../../../bench/lib/replay/synthRecording.js';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';
import { loadSharedFrames } from '../../../src/runtime/replay/sharedFrames.js';
import type { SweepJobInput, SweepJobOutput } from '../../../src/runtime/sweep/sweepJob.js';
import { runInThread } from '../../../src/runtime/sweep/sweepInThread.js';
import type { WorkerContext } from '../../../src/runtime/sweep/sweepPool.js';

/**
 * A sweep of one replay at a time runs on its own thread with the worker pool's contract: results
 * as they finish, in order; the first replay that throws stops the sweep with the pool's error
 * (SWEEP_FAILED, naming the replay) and nothing after it runs; an abort stops it before the next.
 */
let dir: string;
let context: WorkerContext;

const job = (key: string, spread: number, recordingIndex = 0): SweepJobInput => ({
  key,
  params: { spread_bps: spread },
  recordingIndex,
  fromMs: 0,
  toMs: null,
  full: true,
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'perpbot-sweep-thread-'));
  await synthRecording(join(dir, 'rec'), 5 / 3_600, { book: 10, oracle: 5, trades: 5 });
  const { shared } = await loadSharedFrames(join(dir, 'rec'), 64 * 1024 * 1024);
  const config = await loadConfig({ path: 'config/default.yaml', env: {}, acknowledgeMainnet: false });
  context = {
    config,
    strategyIndex: 0,
    cwd: process.cwd(),
    recordings: [{ path: join(dir, 'rec'), shared: shared?.toShared() }],
  };
}, 30_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a sweep on its own thread', () => {
  it('hands each result on as it finishes, and the first failure stops it with the pool error', async () => {
    const done: SweepJobOutput[] = [];
    const jobs = [job('v1/r1/full', 4), job('v2/r1/full', 8, 1), job('v3/r1/full', 12)];
    await expect(runInThread(context, jobs, (o) => done.push(o), new AbortController().signal)).rejects.toMatchObject({
      code: 'SWEEP_FAILED',
      message: 'sweep replay v2/r1/full failed: the sweep has no recording 1',
      details: { job: 'v2/r1/full' },
    });
    expect(done.map((o) => o.key)).toEqual(['v1/r1/full']);
    expect(JSON.parse(done[0]!.report)).toMatchObject({ recording: { markets: [1] } });
  }, 30_000);

  it('aborted, runs nothing more and rejects with the reason', async () => {
    const controller = new AbortController();
    const reason = new Error('interrupted by SIGINT');
    controller.abort(reason);
    const done: SweepJobOutput[] = [];
    await expect(runInThread(context, [job('v1/r1/full', 4)], (o) => done.push(o), controller.signal)).rejects.toBe(
      reason,
    );
    expect(done).toEqual([]);
  });
});
