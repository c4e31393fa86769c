import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { gzipSync, deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTimeout, nodeHttpSend, type HttpCall } from '../../../src/venue/rest/nodeHttpClient.js';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: readonly string[];
  readonly body: string;
  readonly connection: number;
}

/** A node:http peer that numbers its connections and records each request. */
async function httpPeer(answer: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void) {
  const seen: Seen[] = [];
  let connections = 0;
  const ids = new WeakMap<object, number>();
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString(),
        connection: ids.get(req.socket) ?? -1,
      };
      seen.push(request);
      answer(req, res, request);
    });
  });
  server.on('connection', (socket) => ids.set(socket, ++connections));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${port}`, seen, connections: () => connections };
}

/** A raw TCP peer: `onData` sees each request's bytes and answers with whatever it writes. */
async function tcpPeer(onData: (socket: Socket, text: string) => void) {
  const sockets = new Set<Socket>();
  let onEmpty: (() => void)[] = [];
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('data', (data) => onData(socket, data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      if (sockets.size > 0) return;
      for (const resolve of onEmpty) resolve();
      onEmpty = [];
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => sockets.size,
    /** Resolves once every connection the peer accepted has closed (the client dropped them). */
    allClosed: () => (sockets.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => onEmpty.push(resolve))),
  };
}

function call(url: string, more: Partial<HttpCall> = {}): HttpCall {
  return {
    method: 'GET',
    url,
    headers: { accept: 'application/json' },
    body: undefined,
    timeoutMs: 2_000,
    signal: undefined,
    ...more,
  };
}

describe('node HTTP client', () => {
  it('sends what fetch sent (Host, keep-alive, user-agent, accept-encoding, content-length) and reuses the connection', async () => {
    const peer = await httpPeer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
    );
    const first = await nodeHttpSend(
      call(`${peer.url}/v1/orders/place?x=1`, {
        method: 'POST',
        headers: Object.freeze({ accept: 'application/json', 'content-type': 'application/json' }),
        body: '{"a":"é"}',
      }),
    );
    expect(first).toEqual({ status: 200, text: '{"ok":true}', retryAfter: null });
    const second = await nodeHttpSend(
      call(`${peer.url}/v1/markets`, {
        headers: { 'user-agent': 'perpbot-test', host: 'evil.example', connection: 'close' },
      }),
    );
    expect(second.status).toBe(200);
    expect(peer.connections()).toBe(1);
    const [place, markets] = peer.seen;
    expect(place).toMatchObject({ method: 'POST', url: '/v1/orders/place?x=1', body: '{"a":"é"}', connection: 1 });
    expect(place?.rawHeaders).toEqual([
      'host',
      peer.url.slice('http://'.length),
      'connection',
      'keep-alive',
      'accept',
      'application/json',
      'content-type',
      'application/json',
      'user-agent',
      'node',
      'accept-encoding',
      'gzip, deflate',
      'content-length',
      String(Buffer.byteLength('{"a":"é"}')),
    ]);
    // A caller's own user-agent is kept; Host and Connection are the client's own.
    expect(markets?.rawHeaders).toEqual([
      'host',
      peer.url.slice('http://'.length),
      'connection',
      'keep-alive',
      'user-agent',
      'perpbot-test',
      'accept-encoding',
      'gzip, deflate',
    ]);
  });

  it('reads chunked, gzip and deflate answers, and Retry-After', async () => {
    const peer = await httpPeer((req, res) => {
      if (req.url === '/chunked') {
        res.writeHead(503, { 'retry-after': '7' });
        res.write('{"error":');
        setTimeout(() => res.end('"later"}'), 5);
      } else if (req.url === '/gzip') {
        res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"zipped":1}'));
      } else {
        res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync('{"deflated":1}'));
      }
    });
    expect(await nodeHttpSend(call(`${peer.url}/chunked`))).toEqual({
      status: 503,
      text: '{"error":"later"}',
      retryAfter: '7',
    });
    expect((await nodeHttpSend(call(`${peer.url}/gzip`))).text).toBe('{"zipped":1}');
    expect((await nodeHttpSend(call(`${peer.url}/deflate`))).text).toBe('{"deflated":1}');
    expect(peer.connections()).toBe(1);
  });

  it('opens a new connection after the server closed the last one or asked to (Connection: close, a body framed by the close)', async () => {
    let n = 0;
    const peer = await tcpPeer((socket) => {
      n++;
      if (n === 1) socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nhi');
      else if (n === 2) socket.end('HTTP/1.0 200 OK\r\n\r\nuntil the end');
      else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nyes');
    });
    expect((await nodeHttpSend(call(peer.url))).text).toBe('hi');
    expect((await nodeHttpSend(call(peer.url))).text).toBe('until the end');
    expect((await nodeHttpSend(call(peer.url))).text).toBe('yes');
    expect(n).toBe(3);
  });

  it('does not write to an idle connection the server has closed', async () => {
    const peer = await tcpPeer((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
    expect((await nodeHttpSend(call(peer.url))).text).toBe('ok');
    // The server half-closed after answering (a keep-alive timeout): the next request goes on a fresh connection.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await nodeHttpSend(call(peer.url))).text).toBe('ok');
  });

  it('rejects with the system error when the connection is refused or reset mid-answer', async () => {
    const gone = await tcpPeer(() => undefined);
    await closers.pop()?.();
    await expect(nodeHttpSend(call(gone.url))).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    const cut = await tcpPeer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial');
      setTimeout(() => socket.destroy(), 5);
    });
    await expect(nodeHttpSend(call(cut.url))).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('times out with HttpTimeout and drops the connection', async () => {
    const peer = await tcpPeer(() => undefined);
    const error = await nodeHttpSend(call(peer.url, { timeoutMs: 50 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpTimeout);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect((error as Error).message).toBe('timed out after 50 ms');
    await peer.allClosed();
    expect(peer.connections()).toBe(0);
  });

  it("rejects with the caller's reason on abort, and never connects when already aborted", async () => {
    let requests = 0;
    let arrived: () => void = () => undefined;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const peer = await tcpPeer(() => {
      requests++;
      arrived();
    });
    const controller = new AbortController();
    const pending = nodeHttpSend(call(peer.url, { signal: controller.signal }));
    await requestArrived;
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(requests).toBe(1);
    // Refused before anything asynchronous could happen (no connection, no write): the promise is
    // already settled when it is returned, so it wins a race against one that is settled too.
    const already = nodeHttpSend(call(peer.url, { signal: controller.signal }));
    await expect(Promise.race([already, Promise.resolve('not settled')])).rejects.toBe(reason);
  });

  it('refuses a header value that would split the request, writing nothing', async () => {
    let requests = 0;
    const peer = await tcpPeer(() => requests++);
    await expect(
      nodeHttpSend(call(peer.url, { headers: { authorization: 'Bearer x\r\nX-Injected: 1' } })),
    ).rejects.toThrow(TypeError);
    await expect(nodeHttpSend(call(peer.url, { headers: { 'bad name': 'x' } }))).rejects.toThrow(TypeError);
    expect(requests).toBe(0);
  });

  it('refuses a malformed answer as a parse error', async () => {
    const peer = await tcpPeer((socket) => socket.write('NOT HTTP\r\n\r\n'));
    await expect(nodeHttpSend(call(peer.url))).rejects.toMatchObject({ code: 'HPE_INVALID_RESPONSE' });
  });
});
