import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/runtime/cli/runCli.js';
import { readRecording } from '../../src/runtime/recording/readRecording.js';
import type { RecordingRecord } from '../../src/runtime/recording/recordingRecords.js';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { MAX_VENUE_FRAME_BYTES } from '../../src/venue/ws/maxFrameBytes.js';
import { memoryIo, testKeys, type TestKeys } from '../runtime/cli/cliTestSupport.js';
import { frameInjectingProxy, type FrameInjectingProxy } from './support/frameInjectingProxy.js';
import { journalBotConfig, prepareProbeRoot, until } from './support/journalBot.js';
import { startPerpbotIn, type RunningPerpbot } from './support/spawnPerpbot.js';

/**
 * One huge frame from the venue (10 MB of letters and digits, past what the redactor's old
 * regexps could take) to a bot with the flight recorder on: refused unread and counted once, the
 * connection replaced, the recording going on, the bot trading and exiting 0 when stopped.
 */
describe('a 10 MB frame from the venue (perpbot start spawned, flight recorder on)', () => {
  let sim: RunningSim;
  let proxy: FrameInjectingProxy;
  let dir: string;
  let keys: TestKeys;
  let bot: RunningPerpbot | undefined;
  beforeAll(async () => {
    sim = await startSim({ port: 0, blockMs: 250, registrationLagMs: 0 });
    proxy = await frameInjectingProxy(sim.wsUrl);
    dir = mkdtempSync(join(tmpdir(), 'perpbot-oversized-'));
    prepareProbeRoot(dir);
    keys = testKeys();
  });
  afterAll(async () => {
    bot?.child.kill('SIGKILL');
    await bot?.exited;
    await proxy.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps running: the frame is refused and counted once, the recording goes on', async () => {
    const configPath = join(dir, 'perpbot.yaml');
    writeFileSync(
      configPath,
      journalBotConfig(dir, `recorder: { enabled: true, flight_dir: ${JSON.stringify(join(dir, 'flight'))} }\n`)
        .replace('http://127.0.0.1:1', sim.restUrl)
        .replace('ws://127.0.0.1:1/ws', proxy.wsUrl),
    );
    expect(await runCli(['setup', '--config', configPath], memoryIo({ env: keys.env, cwd: dir }).io)).toBe(0);
    const running = startPerpbotIn(['start', '--config', configPath], dir, keys.env);
    bot = running;
    await until(() => running.output().includes('"msg":"bot running"'), 60_000).catch((error: unknown) => {
      throw new Error(`the bot did not start: ${running.output().slice(-2000)}`, { cause: error });
    });
    const connections = proxy.connections();

    proxy.inject('a1B2c3D4'.repeat((10 * 1024 * 1024) / 8));
    await until(() => proxy.connections() > connections, 20_000);
    const refusedAt = running.output().length;
    // Back to trading on the new connection: the private feeds resubscribed and frames recorded.
    await until(
      () => running.output().slice(refusedAt).includes('trading resumed: feeds up and reconciled'),
      20_000,
    ).catch((error: unknown) => {
      throw new Error(`no trading after the refusal: ${running.output().slice(-3000)}`, { cause: error });
    });
    const resumedAt = running.output().length;
    proxy.inject('a1B2c3D4'.repeat((10 * 1024 * 1024) / 8));
    await until(() => proxy.connections() > connections + 1, 20_000);
    await until(() => running.output().slice(resumedAt).includes('trading resumed: feeds up and reconciled'), 20_000);
    expect(running.child.exitCode).toBeNull();

    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    const output = running.output();
    expect(output).not.toContain('fatal');
    expect(output).not.toContain('RangeError');
    // Counted and said once for its shape (the drift monitor), each connection loss logged.
    const departures = output.split('\n').filter((line) => line.includes('"source":"ws:frame"'));
    expect(departures).toHaveLength(1);
    expect(departures[0]).toContain(`a frame of at most ${MAX_VENUE_FRAME_BYTES} bytes`);
    expect(output.split(`larger than ${MAX_VENUE_FRAME_BYTES} bytes`).length - 1).toBeGreaterThanOrEqual(2);
    expect(output).not.toContain('the flight recording failed');

    const records: RecordingRecord[] = [];
    for await (const record of readRecording(join(dir, 'flight'))) records.push(record);
    const gaps = records.filter(
      (r) => r.type === 'connection' && (r.reason ?? '').includes(`larger than ${MAX_VENUE_FRAME_BYTES} bytes`),
    );
    expect(gaps.length).toBeGreaterThanOrEqual(1);
    const lastGap = records.lastIndexOf(gaps[gaps.length - 1] as RecordingRecord);
    // Frames recorded after the refusal: the recording went on. None of them is the huge one.
    expect(records.slice(lastGap).some((r) => r.type === 'frame')).toBe(true);
    expect(records.every((r) => r.type !== 'frame' || r.raw.length < MAX_VENUE_FRAME_BYTES)).toBe(true);
  }, 150_000);
});
