import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * The two ends of tick-to-trade, read off the process's own TCP sockets without touching the
 * client code: every client socket the process opens is announced on node's `net.client.socket`
 * diagnostics channel (the WebSocket client's through `ws`, the REST client's through undici).
 * - On the socket to the feed, a 'data' listener put ahead of the WebSocket library's own stamps
 *   when a frame's bytes reach JavaScript, before any parsing.
 * - On sockets to the venue, the socket's `_writeGeneric` (what `_write` and `_writev`, and so a
 *   corked `write`, flush through; `_write`/`_writev` where node has no `_writeGeneric`) is
 *   wrapped: the stamp is taken when the call returns, i.e. once the request's header and body
 *   bytes have been handed to the kernel. Wrapped when the socket connects, before node flushes
 *   what was written while connecting (node:http writes a first request at once, and the
 *   flush on 'connect' calls `_writeGeneric` directly).
 * `arm()` starts a new cycle; each stamp keeps the first event of its cycle.
 */
export interface WireStamps {
  arm(): void;
  /** When the first bytes of this cycle's frame reached the client (performance.now() ms). */
  readonly arrivalAt: number | undefined;
  /** When this cycle's first request bytes went out to the venue. */
  readonly writeAt: number | undefined;
  /** Data chunks from the feed and writes to the venue seen this cycle. */
  readonly chunks: number;
  readonly writes: number;
  /** Sockets opened to the venue so far (1 when keep-alive held throughout). */
  readonly venueConnections: number;
  close(): void;
}

export function stampWire(ports: { readonly feedPort: number; readonly venuePort: number }): WireStamps {
  let arrivalAt: number | undefined;
  let writeAt: number | undefined;
  let chunks = 0;
  let writes = 0;
  let venueConnections = 0;

  const onFeedData = (): void => {
    if (arrivalAt === undefined) arrivalAt = performance.now();
    chunks++;
  };
  const onWrite = (): void => {
    if (writeAt === undefined) writeAt = performance.now();
    writes++;
  };
  const watch = (socket: Socket): void => {
    if (socket.remotePort === ports.feedPort) socket.prependListener('data', onFeedData);
    if (socket.remotePort === ports.venuePort) {
      venueConnections++;
      wrapWrites(socket, onWrite);
    }
  };
  const onSocket = (message: unknown): void => {
    const socket = (message as { socket: Socket }).socket;
    // Connected sockets know their peer; a connecting one is judged once connected.
    if (socket.remotePort !== undefined) watch(socket);
    else socket.once('connect', () => watch(socket));
  };
  diagnostics.subscribe('net.client.socket', onSocket);
  return {
    arm() {
      arrivalAt = undefined;
      writeAt = undefined;
      chunks = 0;
      writes = 0;
    },
    get arrivalAt() {
      return arrivalAt;
    },
    get writeAt() {
      return writeAt;
    },
    get chunks() {
      return chunks;
    },
    get writes() {
      return writes;
    },
    get venueConnections() {
      return venueConnections;
    },
    close() {
      diagnostics.unsubscribe('net.client.socket', onSocket);
    },
  };
}

type WriteFn = (this: Socket, ...args: unknown[]) => unknown;

function wrapWrites(socket: Socket, after: () => void): void {
  const target = socket as unknown as Record<'_writeGeneric' | '_write' | '_writev', WriteFn>;
  const names =
    typeof target._writeGeneric === 'function' ? (['_writeGeneric'] as const) : (['_write', '_writev'] as const);
  for (const name of names) {
    const original = target[name];
    if (typeof original !== 'function') continue;
    target[name] = function (this: Socket, ...args: unknown[]) {
      const result = original.apply(this, args);
      after();
      return result;
    };
  }
}
