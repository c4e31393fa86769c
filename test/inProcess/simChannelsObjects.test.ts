import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStrategies } from '../../src/runtime/bot/wiring/loadStrategies.js';
import { loadConfig } from '../../src/runtime/config/loadConfig.js';
import { replayRecording } from '../../src/runtime/replay/replayRecording.js';
import { SimWsConnection } from '../../src/sim/ws/simWsConnection.js';
import { recordingLogger } from '../../src/testing/kitSupport.js';
import { decodeServerFrame, decodeServerValue } from '../../src/venue/ws/decodeServerFrame.js';
import { recordSimInProcess } from '../e2e/support/recordSimInProcess.js';

/**
 * In process the simulator hands the bot its frames as the objects it builds, with no JSON between
 * them (`SimChannels`). Every frame of a replay with the market maker, decoded from the object, is
 * the message the bot's decoder makes of the same frame on the wire (serialised, then parsed), key
 * for key: strict equality, so a key present as undefined on one side only would fail.
 */
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'perpbot-sim-objects-'));
  await recordSimInProcess({ dir: join(dir, 'rec'), markets: [1], minutes: 1, seed: 3, blockMs: 250 });
}, 30_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('frames handed to the bot as objects', () => {
  it('decode to what the same frames decode to through JSON, on every channel the bot reads', async () => {
    const seen = new Map<string, number>();
    const mismatches: string[] = [];
    const original = Object.getOwnPropertyDescriptor(SimWsConnection.prototype, 'readFramesAsObjects')!;
    SimWsConnection.prototype.readFramesAsObjects = function (reader: (frame: object) => void): void {
      original.value.call(this, (frame: object) => {
        const viaWire = decodeServerFrame(JSON.stringify(frame));
        const direct = decodeServerValue(frame);
        const channel = viaWire.kind === 'channel' ? viaWire.message.channel : viaWire.kind;
        seen.set(channel, (seen.get(channel) ?? 0) + 1);
        try {
          expect(direct).toStrictEqual(viaWire);
        } catch {
          if (mismatches.length < 3) mismatches.push(JSON.stringify(frame).slice(0, 300));
        }
        reader(frame);
      });
    };
    try {
      const config = await loadConfig({ path: 'config/default.yaml', env: {}, acknowledgeMainnet: false });
      const report = await replayRecording({
        path: join(dir, 'rec'),
        config,
        hosted: await loadStrategies(config, process.cwd()),
        latencyMs: 0,
        makerFeeBps: 2,
        takerFeeBps: 5,
        balance: '100000',
        sampleMs: 1_000,
        log: recordingLogger([], false),
        onError: (error) => mismatches.push(String(error)),
      });
      expect(report.totals.fills).toBeGreaterThan(0);
    } finally {
      Object.defineProperty(SimWsConnection.prototype, 'readFramesAsObjects', original);
    }
    expect(mismatches).toEqual([]);
    for (const channel of ['orderbook', 'oracle', 'orders', 'fills', 'positions', 'account'])
      expect(seen.get(channel), channel).toBeGreaterThan(0);
  }, 30_000);
});
