import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP hop between the bot and the simulator that answers chosen paths with 503 while they
 * are "down" and forwards everything else unchanged: a venue whose gateway fails one endpoint for
 * a while (e.g. the nonce read that WebSocket authentication needs), on loopback.
 */
export interface FaultyRestProxy {
  readonly url: string;
  /** Paths (without the query) answered 503 from now on. */
  fail(...paths: string[]): void;
  /** The next `times` requests to `path` are answered 503, then it is forwarded again. */
  failNext(path: string, times: number): void;
  /** Everything forwarded again. */
  restore(): void;
  /** How many requests to each failing path were refused. */
  readonly refused: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

export async function startFaultyRestProxy(targetUrl: string): Promise<FaultyRestProxy> {
  const failing = new Set<string>();
  const failCounts = new Map<string, number>();
  const refused = new Map<string, number>();
  const server: Server = createServer((req, res) => void handle(req, res));
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const left = failCounts.get(path) ?? 0;
    if (left > 0) failCounts.set(path, left - 1);
    if (failing.has(path) || left > 0) {
      refused.set(path, (refused.get(path) ?? 0) + 1);
      res
        .writeHead(503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'Unavailable', message: 'Unavailable: upstream gateway' } }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const init: RequestInit = {
        method: req.method ?? 'GET',
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
      };
      if (chunks.length > 0) init.body = Buffer.concat(chunks);
      const answer = await fetch(`${targetUrl}${req.url ?? '/'}`, init);
      const headers: Record<string, string> = {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
      };
      const retryAfter = answer.headers.get('retry-after');
      if (retryAfter !== null) headers['retry-after'] = retryAfter;
      res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      res.writeHead(502).end();
    }
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    fail: (...paths) => paths.forEach((p) => failing.add(p)),
    failNext: (path, times) => void failCounts.set(path, times),
    restore: () => {
      failing.clear();
      failCounts.clear();
    },
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
