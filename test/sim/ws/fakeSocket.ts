import type { WebSocket } from 'ws';
import { ManualClock } from '../../../src/core/clock.js';
import { SimWsConnection } from '../../../src/sim/ws/simWsConnection.js';

/** What a fake socket was asked to do, in order. */
export interface SocketLog {
  readonly calls: string[];
}

/** A real connection over a socket that only records calls: for the parts that act on connections. */
export function fakeConnection(
  id: number,
  timers = new ManualClock(),
): { connection: SimWsConnection; log: SocketLog } {
  const log: SocketLog = { calls: [] };
  const socket = {
    bufferedAmount: 0,
    send: (text: string) => log.calls.push(`send ${text}`),
    ping: () => log.calls.push('ping'),
    pong: () => log.calls.push('pong'),
    terminate: () => log.calls.push('terminate'),
    close: () => log.calls.push('close'),
  } as unknown as WebSocket;
  const limits = { inboundFrames: 10, inboundWindowMs: 1_000, maxBufferedBytes: 1 << 20 };
  return { connection: new SimWsConnection(id, socket, limits, timers, () => {}), log };
}
