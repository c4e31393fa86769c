import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';

export interface RawAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly text: string;
  /** Which TCP connection carried it: the same number means the connection was reused. */
  readonly connection: number;
}

export interface RawRequest {
  readonly method: string;
  /** Path and query, already encoded. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/**
 * One keep-alive HTTP/1.1 connection to a server (an agent with a single socket), so a test can
 * send something hostile and then check that a valid request still works on the same connection.
 * Every exchange has a deadline: a server that never answers fails the test instead of hanging it.
 */
export class KeepAliveConnection {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly ids = new WeakMap<Socket, number>();
  private nextId = 1;

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 3_000,
  ) {}

  send(req: RawRequest): Promise<RawAnswer> {
    const url = new URL(this.baseUrl);
    return new Promise((resolve, reject) => {
      const outgoing = request({
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        agent: this.agent,
        headers: {
          ...(req.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(req.body)) }),
          ...req.headers,
        },
      });
      const timer = setTimeout(() => {
        outgoing.destroy();
        reject(new Error(`no answer within ${this.timeoutMs} ms to ${req.method} ${req.path.slice(0, 120)}`));
      }, this.timeoutMs);
      // Captured at assignment: by the end of the response the socket is back in the agent's pool.
      let connection = 0;
      outgoing.on('socket', (socket) => {
        connection = this.idOf(socket);
      });
      outgoing.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      outgoing.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            text: Buffer.concat(chunks).toString('utf8'),
            connection,
          });
        });
      });
      outgoing.end(req.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }

  private idOf(socket: Socket): number {
    let id = this.ids.get(socket);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(socket, id);
    }
    return id;
  }
}
