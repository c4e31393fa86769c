import type { IncomingMessage } from 'node:http';
import { readJsonBody, type BodyResult } from './readJsonBody.js';
import type { SimHttpRequest } from './simHttpRequest.js';

/**
 * A node:http request as the simulator's handler takes it. A class, so each request costs one
 * object and no closures: under tsx (what `npm run sim` runs) every closure stored under a name
 * is renamed by a helper that redefines its `name`, a microsecond per request for the two here.
 * The client's address and the Authorization header are read when asked for, as the handler
 * does at once, before it waits for anything.
 */
export class NodeSimHttpRequest implements SimHttpRequest {
  readonly method: string;
  readonly url: string;

  constructor(private readonly req: IncomingMessage) {
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
  }

  get ip(): string {
    return this.req.socket.remoteAddress ?? 'unknown';
  }

  get authorization(): string | undefined {
    return this.req.headers.authorization;
  }

  readBody(limit: number): Promise<BodyResult> {
    return readJsonBody(this.req, limit);
  }

  discardBody(): Promise<void> {
    const req = this.req;
    return new Promise((resolve) => {
      req.resume();
      req.on('end', resolve);
      req.on('error', () => resolve());
      req.on('close', () => resolve());
    });
  }
}
