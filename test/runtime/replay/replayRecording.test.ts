import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/runtime/config/loadConfig.js';
import { RecordingWriter } from '../../../src/runtime/recording/recordingWriter.js';
import { replayRecording } from '../../../src/runtime/replay/replayRecording.js';
import { recordingLogger } from '../../../src/testing/kitSupport.js';
import { VirtualTime } from '../../../src/testing/virtualTime.js';

const dirs: string[] = [];

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function recordingOf(markets: number[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'perpbot-replay-unit-'));
  dirs.push(dir);
  const writer = await RecordingWriter.open({
    dir,
    clock: new VirtualTime(),
    description: {
      venue: { profile: 'sim', restUrl: 'http://x.invalid', wsUrl: 'ws://x.invalid' },
      markets,
      channels: [],
    },
    limits: { segmentBytes: 1_000_000, segmentMs: 3_600_000, maxDiskBytes: 10_000_000 },
  });
  await writer.close();
  return dir;
}

describe('replayRecording', () => {
  it('refuses a config whose strategies trade a market the recording does not hold, naming it', async () => {
    const config = await loadConfig({ path: 'config/default.yaml', env: {}, acknowledgeMainnet: false });
    const replay = replayRecording({
      path: await recordingOf([2]),
      config,
      hosted: [],
      latencyMs: 0,
      makerFeeBps: 2,
      takerFeeBps: 5,
      balance: '100000',
      sampleMs: 1_000,
      log: recordingLogger([], false),
      onError: () => {},
    });
    await expect(replay).rejects.toMatchObject({
      code: 'CONFIG_MARKET',
      message: expect.stringContaining('market(s) 1, which the recording does not hold (it has 2)') as unknown,
    });
  });
});
