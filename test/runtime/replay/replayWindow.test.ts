import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthRecording } from '../../../bench/lib/replay/synthRecording.js';
import { loadStrategies } from '../../../src/runtime/bot/wiring/loadStrategies.js';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';
import type { Config } from '../../../src/runtime/config/configSchema.js';
import { streamRecordingFrames } from '../../../src/runtime/replay/replayFrames.js';
import { replayFrames, replayRecording, type ReplayRunOptions } from '../../../src/runtime/replay/replayRecording.js';
import { replayReportText } from '../../../src/runtime/replay/replayReport.js';
import { loadSharedFrames } from '../../../src/runtime/replay/sharedFrames.js';
import type { HostedStrategy } from '../../../src/strategy/strategyHost.js';
import { recordingLogger } from '../../../src/testing/kitSupport.js';

/**
 * A replay from a recording decoded into shared memory (what a sweep's workers read) is the replay
 * of the recording streamed from disk, byte for byte; and a window replays only its span, with the
 * market the frames before it built.
 */
let dir: string;
let config: Config;
let hosted: HostedStrategy[];
let options: ReplayRunOptions;
const START = Date.UTC(2026, 5, 1);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'perpbot-replay-window-'));
  await synthRecording(join(dir, 'rec'), 20 / 3_600, { book: 10, oracle: 5, trades: 5 });
  config = await loadConfig({ path: 'config/default.yaml', env: {}, acknowledgeMainnet: false });
  hosted = await loadStrategies(config, process.cwd());
  options = {
    config,
    hosted,
    latencyMs: 0,
    makerFeeBps: 2,
    takerFeeBps: 5,
    balance: '100000',
    sampleMs: 1_000,
    log: recordingLogger([], false),
    onError: (error) => {
      throw error;
    },
  };
}, 30_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('replay frame sources and windows', () => {
  it('shared memory, a stream from disk and a window from before the start all give the same report bytes', async () => {
    const streamed = replayReportText(await replayRecording({ ...options, path: join(dir, 'rec') }));
    const { shared, extent } = await loadSharedFrames(join(dir, 'rec'), 64 * 1024 * 1024);
    expect(shared?.count).toBe(extent.frames);
    expect(extent.frames).toBe(401);
    expect(replayReportText(await replayFrames(shared!, options))).toBe(streamed);
    // The same frames read again from memory: a second replay of them is the same too.
    expect(replayReportText(await replayFrames(shared!, { ...options, window: { fromMs: START - 5_000 } }))).toBe(
      streamed,
    );
    // Too large for the budget: only the extent is learnt, with the same identity.
    const tight = await loadSharedFrames(join(dir, 'rec'), 1_000);
    expect(tight.shared).toBeUndefined();
    expect(tight.extent).toEqual(extent);
  }, 30_000);

  it('a window replays its span only, trading on the book the frames before it built', async () => {
    const fromMs = START + 8_000;
    const toMs = START + 16_000;
    const report = await replayFrames(await streamRecordingFrames(join(dir, 'rec')), {
      ...options,
      window: { fromMs, toMs },
    });
    expect(report.recording.startMs).toBe(fromMs);
    expect(report.recording.endMs).toBeLessThan(toMs);
    expect(report.recording.endMs).toBeGreaterThanOrEqual(toMs - 200);
    // 20 frames a second for 8 s.
    expect(report.recording.frames).toBe(160);
    expect(report.totals.orders).toBeGreaterThan(0);
    for (const fill of report.series.fills) {
      expect(fill.t).toBeGreaterThanOrEqual(fromMs);
      expect(fill.t).toBeLessThan(toMs);
    }
    expect(report.series.equity[0]!.t).toBeGreaterThanOrEqual(fromMs);
  }, 30_000);
});
