import WebSocket from 'ws';
import { PerpbotError } from '../../src/core/perpbotError.js';
import { startSim } from '../../src/sim/startSim.js';

/**
 * Realistic market-data frames: the raw text the simulator sends on the oracle and orderbook
 * channels (all markets), captured from a running simulator with fast blocks. Orderbook
 * snapshots and updates both appear, as a client sees them.
 */
export async function captureSimFrames(count: number, timeoutMs = 60_000): Promise<string[]> {
  const sim = await startSim({ port: 0, blockMs: 5, registrationLagMs: 0 });
  const socket = new WebSocket(sim.wsUrl);
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const frames: string[] = [];
      const timer = setTimeout(() => {
        reject(
          new PerpbotError(`captured only ${frames.length} of ${count} frames in ${timeoutMs} ms`, {
            code: 'BENCH_CAPTURE',
            hints: ['the machine may be overloaded; retry'],
          }),
        );
      }, timeoutMs);
      socket.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.on('open', () => {
        socket.send(JSON.stringify({ method: 'subscribe', params: { channel: 'oracle' } }));
        socket.send(JSON.stringify({ method: 'subscribe', params: { channel: 'orderbook' } }));
      });
      socket.on('message', (data) => {
        const text = data.toString();
        // Control frames (acks) are not market data.
        if (!text.includes('"channel":"oracle"') && !text.includes('"channel":"orderbook"')) return;
        if (text.includes('"type":"subscribed"')) return;
        frames.push(text);
        if (frames.length >= count) {
          clearTimeout(timer);
          resolve(frames);
        }
      });
    });
  } finally {
    socket.terminate();
    await sim.close();
  }
}
