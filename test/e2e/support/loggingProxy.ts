import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';

/** One request that reached the venue through the proxy. */
export interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  /** Header names only (lower case): whether credentials travelled, never their values. */
  readonly headers: readonly string[];
  /** A WebSocket upgrade rather than a REST request. */
  readonly upgrade: boolean;
}

export interface LoggingProxy {
  readonly restUrl: string;
  readonly wsUrl: string;
  readonly requests: readonly ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * A venue's stand-in seen through a window: every REST request and WebSocket upgrade is logged and
 * passed on unchanged to `targetPort` (upgrades as raw TCP, so frames are not touched).
 */
export async function loggingProxy(targetPort: number): Promise<LoggingProxy> {
  const requests: ProxiedRequest[] = [];
  const log = (req: IncomingMessage, upgrade: boolean): void => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: Object.keys(req.headers), upgrade });
  };
  const server: Server = createServer((req, res) => {
    log(req, false);
    const forward = httpRequest(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.on('upgrade', (req, socket, head) => {
    log(req, true);
    const upstream = connect(targetPort, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    restUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
