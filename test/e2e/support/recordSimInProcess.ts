import type { WebSocket } from 'ws';
import { RECORDED_CHANNELS, PUBLIC_SOURCE } from '../../../src/runtime/recording/recordPublicFeeds.js';
import { RecordingWriter } from '../../../src/runtime/recording/recordingWriter.js';
import { createSimControls } from '../../../src/sim/simControls.js';
import { resolveSimOptions } from '../../../src/sim/simOptions.js';
import { SimRuntime } from '../../../src/sim/simRuntime.js';
import { SimEventBatcher } from '../../../src/sim/ws/simEventBatcher.js';
import { SimWsConnection } from '../../../src/sim/ws/simWsConnection.js';
import { SimWsHub } from '../../../src/sim/ws/simWsHub.js';
import { VirtualTime } from '../../../src/testing/virtualTime.js';
import { PUBLIC_CHANNELS } from '../../../src/venue/schemas/wsFramesFields.js';

export interface SimRecording {
  readonly frames: number;
  readonly startMs: number;
}

/**
 * Records `minutes` of a running simulator (its synthetic makers and oracle walk, a block every
 * `blockMs`) in virtual time: the simulator's own WebSocket fan-out writes the public channels'
 * frames for `markets` into the recorder's `RecordingWriter`, stamped by the same virtual clock,
 * so two minutes of market take a second, and the files are what `perpbot record` writes.
 */
export async function recordSimInProcess(o: {
  readonly dir: string;
  readonly markets: readonly number[];
  readonly minutes: number;
  readonly seed: number;
  readonly blockMs: number;
}): Promise<SimRecording> {
  const time = new VirtualTime(Date.UTC(2026, 5, 1, 12));
  const runtime = new SimRuntime(resolveSimOptions({ seed: o.seed, blockMs: o.blockMs, registrationLagMs: 0 }), time);
  runtime.attachControls(createSimControls(runtime, () => undefined));
  const writer = await RecordingWriter.open({
    dir: o.dir,
    clock: time,
    description: {
      venue: { profile: 'sim', restUrl: 'http://sim.invalid', wsUrl: 'ws://sim.invalid/ws' },
      markets: [...o.markets],
      channels: [...RECORDED_CHANNELS],
    },
    limits: { segmentBytes: 64 * 1024 * 1024, segmentMs: 3_600_000, maxDiskBytes: 1024 * 1024 * 1024 },
  });
  const hub = new SimWsHub(runtime);
  const socket = { bufferedAmount: 0, send: (text: string) => writer.frame(PUBLIC_SOURCE, text), ping() {}, pong() {} };
  const limits = { inboundFrames: 1, inboundWindowMs: 1_000, maxBufferedBytes: Infinity };
  const connection = new SimWsConnection(1, socket as unknown as WebSocket, limits, time, () => {});
  hub.add(connection);
  writer.connected(PUBLIC_SOURCE, 1);
  for (const channel of PUBLIC_CHANNELS) connection.subscriptions.set(channel, [...o.markets]);
  const batcher = new SimEventBatcher(hub, (error) => {
    throw error;
  });
  const events = runtime.events.subscribe((event) => batcher.push(event));
  hub.sendSnapshot(connection, 'orderbook');
  const blocks = Math.round((o.minutes * 60_000) / o.blockMs);
  for (let i = 0; i < blocks; i++) {
    await time.advance(o.blockMs);
    runtime.mineBlock();
  }
  await time.settle();
  events.unsubscribe();
  await writer.close();
  return { frames: writer.framesWritten, startMs: Date.UTC(2026, 5, 1, 12) };
}
