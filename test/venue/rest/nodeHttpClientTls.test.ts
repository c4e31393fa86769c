import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);

/**
 * The REST client's own HTTP/1.1 client over real TLS: a node:https server with a certificate
 * made for this run (openssl, valid for localhost, one day), and the client in a child process,
 * since which authorities node trusts (NODE_EXTRA_CA_CERTS) is fixed when a process starts.
 */
const CLIENT = resolve(import.meta.dirname, '..', '..', '..', 'src', 'venue', 'rest', 'nodeHttpClient.ts');

interface Seen {
  readonly url: string;
  readonly connection: number;
  readonly servername: string | false | undefined;
  readonly alpn: string | false | null;
}

let dir: string;
let server: Server;
let origin: string;
const seen: Seen[] = [];
let connections = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'perpbot-tls-'));
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'],
      ...['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  const ids = new WeakMap<object, number>();
  server = createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')), ALPNProtocols: ['http/1.1'] },
    (req, res) => {
      // node sets `servername` (the SNI the client sent) on a server's TLS socket; @types/node leaves it out.
      const socket = req.socket as TLSSocket & { readonly servername?: string | false };
      seen.push({
        url: req.url ?? '',
        connection: ids.get(socket) ?? -1,
        servername: socket.servername,
        alpn: socket.alpnProtocol,
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url }));
    },
  );
  server.on('secureConnection', (socket) => ids.set(socket, ++connections));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
  rmSync(dir, { recursive: true, force: true });
});

/** Two GETs in a row through `nodeHttpSend` in a child process; each answer (or error code) as JSON. */
async function clientRun(env: Record<string, string>): Promise<unknown[]> {
  const script = `
    const { nodeHttpSend } = await import(${JSON.stringify(CLIENT)});
    const results = [];
    for (const path of ['/first', '/second?x=1']) {
      const call = { method: 'GET', url: ${JSON.stringify(origin)} + path, headers: {}, body: undefined, timeoutMs: 5000, signal: undefined };
      try {
        const answer = await nodeHttpSend(call);
        results.push({ status: answer.status, text: answer.text });
      } catch (error) {
        results.push({ error: error.code ?? error.name });
      }
    }
    console.log(JSON.stringify(results));
    process.exit(0);
  `;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, ...env },
    timeout: 20_000,
  });
  return JSON.parse(stdout) as unknown[];
}

describe('nodeHttpSend over TLS', () => {
  it('talks to a server whose certificate is trusted: SNI, http/1.1 by ALPN, and one connection kept alive for both requests', async () => {
    seen.length = 0;
    const before = connections;
    const results = await clientRun({ NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') });
    expect(results).toEqual([
      { status: 200, text: '{"path":"/first"}' },
      { status: 200, text: '{"path":"/second?x=1"}' },
    ]);
    expect(connections - before).toBe(1);
    expect(seen.map((s) => s.url)).toEqual(['/first', '/second?x=1']);
    expect(new Set(seen.map((s) => s.connection)).size).toBe(1);
    expect(seen[0]).toMatchObject({ servername: 'localhost', alpn: 'http/1.1' });
  }, 30_000);

  it('refuses a certificate no trusted authority signed, and sends nothing', async () => {
    seen.length = 0;
    const results = await clientRun({ NODE_EXTRA_CA_CERTS: '' });
    expect(results).toEqual([{ error: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, { error: 'DEPTH_ZERO_SELF_SIGNED_CERT' }]);
    expect(seen).toEqual([]);
  }, 30_000);
});
