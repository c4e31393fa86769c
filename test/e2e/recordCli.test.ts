import { readFileSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { readRecording } from '../../src/runtime/recording/readRecording.js';
import type { RecordingRecord } from '../../src/runtime/recording/recordingRecords.js';
import { decodeServerFrame } from '../../src/venue/ws/decodeServerFrame.js';
import { writeSimConfig } from '../runtime/cli/cliTestSupport.js';
import { until } from './support/journalBot.js';
import { REPO_ROOT, startPerpbotIn } from './support/spawnPerpbot.js';

/**
 * `perpbot record` as a user runs it (the CLI in a child process, no keys in its environment)
 * against a simulator on port 0: the frames come back from the files in order and decode with the
 * client's decoders, a dropped socket is a gap followed by a new connection, and both Ctrl-C and
 * --hours leave complete gzip segments.
 */
async function records(dir: string): Promise<RecordingRecord[]> {
  const out: RecordingRecord[] = [];
  try {
    for await (const record of readRecording(dir)) out.push(record);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return out;
}

function decodedChannels(all: readonly RecordingRecord[]): { channel: string; type: string }[] {
  const out: { channel: string; type: string }[] = [];
  for (const r of all) {
    if (r.type !== 'frame') continue;
    const decoded = decodeServerFrame(r.raw);
    expect(decoded.kind, r.raw).not.toBe('malformed');
    if (decoded.kind === 'channel') out.push({ channel: decoded.message.channel, type: decoded.message.type });
  }
  return out;
}

describe('perpbot record (spawned)', () => {
  let sim: RunningSim;
  let dir: string;
  let config: string;

  beforeAll(async () => {
    sim = await startSim({ port: 0, seed: 5, blockMs: 50, registrationLagMs: 0 });
    ({ dir, path: config } = await writeSimConfig(sim, [1]));
    await writeFile(
      config,
      `${await readFile(config, 'utf8')}journal: { path: ${JSON.stringify(join(dir, 'j.sqlite'))} }\n`,
    );
  }, 30_000);

  afterAll(async () => {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('records every public frame, records a dropped socket as a gap, and closes the segment on Ctrl-C', async () => {
    const out = join(dir, 'rec-ctrl-c');
    const bot = startPerpbotIn(['record', '--config', config, '--out', out], REPO_ROOT, {});
    try {
      // The segment being written reads as far as it was flushed: wait for book updates on connection 1.
      await until(
        async () => decodedChannels(await records(out)).some((c) => c.channel === 'orderbook' && c.type === 'update'),
        20_000,
      );
      expect(sim.controls.dropWebSockets()).toBe(1);
      await until(() => bot.output().includes('reconnected (connection 2)'), 10_000);
      await until(async () => {
        const all = await records(out);
        const resumed = all.findIndex((r) => r.type === 'connected' && r.connection === 2);
        // The synthetic makers trade now and then: wait for one, so the trades channel is in the recording too.
        return (
          resumed > 0 &&
          all.slice(resumed).some((r) => r.type === 'frame' && r.raw.includes('"snapshot"')) &&
          decodedChannels(all).some((c) => c.channel === 'trades')
        );
      }, 30_000);
      bot.child.kill('SIGINT');
      expect(await bot.exited, bot.output()).toBe(0);
    } finally {
      bot.child.kill('SIGKILL');
    }

    const all = await records(out);
    expect(all[0]).toMatchObject({ type: 'header', version: 1, markets: [1], venue: { wsUrl: sim.wsUrl } });
    const kinds = all.map((r) => (r.type === 'connected' ? `connected ${r.connection}` : r.type));
    const gap = kinds.indexOf('gap');
    expect(kinds.slice(0, 2)).toEqual(['header', 'connected 1']);
    expect(gap).toBeGreaterThan(2);
    expect(kinds.indexOf('connected 2')).toBe(gap + 1);
    // Receive times never go back.
    const times = all.flatMap((r) => (r.type === 'header' ? [] : [r.t]));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Each connection starts with the book's snapshot, then its updates; the other channels came too.
    const channels = decodedChannels(all);
    expect(channels.filter((c) => c.channel === 'orderbook' && c.type === 'snapshot')).toHaveLength(2);
    expect(new Set(channels.map((c) => c.channel))).toEqual(new Set(['orderbook', 'oracle', 'trades']));
    // Ctrl-C closed the segment: a complete gzip file that any tool reads.
    const files = await readdir(out);
    expect(files).toHaveLength(1);
    expect(() => gunzipSync(readFileSync(join(out, files[0] ?? '')))).not.toThrow();
    expect(bot.output()).toMatch(/recorded \d+ frames in 1 segment\(s\)/);
  }, 90_000);

  it('stops by itself after --hours', async () => {
    const out = join(dir, 'rec-hours');
    const bot = startPerpbotIn(['record', '--config', config, '--out', out, '--hours', '0.0005'], REPO_ROOT, {});
    expect(await bot.exited, bot.output()).toBe(0);
    expect(bot.output()).toContain('stops after 0.0005 h');
    const files = await readdir(out);
    expect(() => gunzipSync(readFileSync(join(out, files[0] ?? '')))).not.toThrow();
    expect(decodedChannels(await records(out)).some((c) => c.channel === 'oracle')).toBe(true);
  }, 60_000);
});
