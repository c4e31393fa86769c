import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeSimHttpRequest } from '../../../src/sim/rest/nodeSimHttpRequest.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A server whose handler reads each request through NodeSimHttpRequest and answers what it saw. */
async function serve(read: (request: NodeSimHttpRequest) => Promise<unknown>): Promise<number> {
  server = createServer((req: IncomingMessage, res) => {
    void read(new NodeSimHttpRequest(req)).then((seen) => res.end(JSON.stringify(seen)));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function send(port: number, method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return new Promise<unknown>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('NodeSimHttpRequest', () => {
  it('gives the method, target, client address and Authorization header, and reads the JSON body', async () => {
    const port = await serve(async (r) => ({
      method: r.method,
      url: r.url,
      ip: r.ip,
      authorization: r.authorization ?? null,
      body: await r.readBody(1_000),
    }));
    expect(await send(port, 'POST', '/v1/orders/place?x=1', '{"a":[1,2]}', { authorization: 'Bearer t' })).toEqual({
      method: 'POST',
      url: '/v1/orders/place?x=1',
      ip: '127.0.0.1',
      authorization: 'Bearer t',
      body: { ok: true, value: { a: [1, 2] } },
    });
  });

  it('refuses a body over the limit, and discards one it will not read so the answer still goes out', async () => {
    const port = await serve(async (r) => {
      if (r.url === '/discard') {
        await r.discardBody();
        return { discarded: true, authorization: r.authorization ?? null };
      }
      const read = await r.readBody(8);
      return read.ok ? read : { ok: false, status: read.error.httpStatus, text: read.error.text };
    });
    expect(await send(port, 'POST', '/read', '{"long":"enough to pass eight bytes"}')).toEqual({
      ok: false,
      status: 413,
      text: 'InvalidArgument: request body exceeds 8 bytes',
    });
    expect(await send(port, 'POST', '/discard', 'x'.repeat(100_000))).toEqual({ discarded: true, authorization: null });
  });
});
