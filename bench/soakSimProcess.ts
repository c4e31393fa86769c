/**
 * The simulator of `npm run soak`, in its own process so that its memory is measured apart from
 * the bot's. Talks to the parent over IPC: `ready` with the URLs, then `stats` every second with
 * this process's RSS and the WebSocket frames sent so far (the bot is the only client, so these
 * are the frames the bot receives). Stops when the parent disconnects or on SIGTERM.
 */
import WebSocket from 'ws';
import { startSim } from '../src/sim/startSim.js';

export interface SoakSimStats {
  readonly type: 'stats';
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  readonly framesSent: number;
  readonly blockNumber: number;
  /** True when the reading follows a full GC the parent asked for (`{ type: 'measure' }`). */
  readonly afterGc: boolean;
}

export interface SoakSimReady {
  readonly type: 'ready';
  readonly restUrl: string;
  readonly wsUrl: string;
}

const blockMs = Number(process.env['SOAK_SIM_BLOCK_MS'] ?? '2');
let framesSent = 0;
// Counting at the socket is the only way to see what reaches the bot without changing the
// simulator: every data and control frame the simulator writes goes through send().
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function countedSend(this: WebSocket, ...args: Parameters<WebSocket['send']>) {
  framesSent++;
  return send.apply(this, args);
} as WebSocket['send'];

const sim = await startSim({
  port: 0,
  blockMs,
  registrationLagMs: 0,
  onError: (error) => process.stderr.write(`soak sim: internal error: ${String(error)}\n`),
});
const sendStats = (afterGc: boolean): void => {
  const memory = process.memoryUsage();
  process.send?.({
    type: 'stats',
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    framesSent,
    blockNumber: sim.controls.state().blockNumber,
    afterGc,
  } satisfies SoakSimStats);
};
const report = setInterval(() => sendStats(false), 1000);
// Memory readings follow a full GC (the parent starts this process with --expose-gc), so they
// compare what is retained, not where the collector happened to be.
process.on('message', (m: { type?: string }) => {
  if (m.type !== 'measure') return;
  (globalThis as { gc?: () => void }).gc?.();
  sendStats(true);
});
process.send?.({ type: 'ready', restUrl: sim.restUrl, wsUrl: sim.wsUrl } satisfies SoakSimReady);

const stop = async (): Promise<void> => {
  clearInterval(report);
  await sim.close();
  process.exit(0);
};
process.once('disconnect', () => void stop());
process.once('SIGTERM', () => void stop());
