import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a connection may sit without a request (from its opening, or since its last answer),
 * and how long a request may take to be read and answered. Node's own `headersTimeout` is not
 * enough: it was seen to leave a slow sender alone for good while idle sockets sat beside it.
 */
const CONNECTION_DEADLINES = { idleMs: 5_000, requestMs: 10_000 } as const;

interface Slot {
  /** The response being written on it, while there is one. */
  response: ServerResponse | undefined;
  /** Requests it has carried: a client's keep-alive connection has, a socket opened only to sit there has not. */
  served: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * At most `max` open connections, without ever turning a new one away while old ones merely sit
 * there: at the cap, a new connection closes the oldest that never carried a request, else the
 * oldest idle keep-alive one, else the oldest dashboard event stream. And every
 * connection has a deadline: one without a request, or with a request that is not answered (a
 * slow sender), is closed when it passes; only an event stream lives on. A handful of idle or
 * slow sockets (nobody needs a token to open one) so cannot lock out health and the kill switch.
 * (`server.maxConnections` would refuse the newcomer instead: the operator's request, when the
 * idle ones came first.)
 */
export function limitConnections(
  server: Server,
  max: number,
  deadlines: { readonly idleMs: number; readonly requestMs: number } = CONNECTION_DEADLINES,
): void {
  const slots = new Map<Socket, Slot>();
  const arm = (socket: Socket, slot: Slot, ms: number): void => {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      if (slot.response === undefined || !isEventStream(slot.response)) socket.destroy();
    }, ms).unref();
  };
  server.on('connection', (socket: Socket) => {
    const slot: Slot = { response: undefined, served: 0, timer: undefined };
    slots.set(socket, slot);
    arm(socket, slot, deadlines.idleMs);
    socket.once('close', () => {
      clearTimeout(slot.timer);
      slots.delete(socket);
    });
    if (slots.size <= max) return;
    const evicted = oldestEvictable(slots) ?? socket;
    // Out of the count now: its 'close' comes later, and the next newcomer must not pick it again.
    slots.delete(evicted);
    evicted.destroy();
  });
  server.on('request', (req, res: ServerResponse) => {
    const slot = slots.get(req.socket);
    if (slot === undefined) return;
    slot.response = res;
    slot.served++;
    arm(req.socket, slot, deadlines.requestMs);
    const done = (): void => {
      if (slot.response !== res) return;
      slot.response = undefined;
      arm(req.socket, slot, deadlines.idleMs);
    };
    res.once('finish', done);
    res.once('close', done);
  });
}

function oldestEvictable(slots: ReadonlyMap<Socket, Slot>): Socket | undefined {
  let idle: Socket | undefined;
  let stream: Socket | undefined;
  for (const [socket, slot] of slots) {
    if (slot.response === undefined && slot.served === 0) return socket;
    if (slot.response === undefined) idle ??= socket;
    else stream ??= isEventStream(slot.response) ? socket : undefined;
  }
  return idle ?? stream;
}

function isEventStream(res: ServerResponse): boolean {
  return String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
}
