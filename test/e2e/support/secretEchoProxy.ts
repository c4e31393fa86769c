import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The secrets one order placement carried, exactly as sent. */
export interface PlacementSecrets {
  /** The permit signature (base64, the wire encoding); permit mode. */
  readonly signature?: string;
  /** The bearer JWT; JWT mode. */
  readonly bearer?: string;
}

/**
 * A real HTTP hop in front of the simulator that forwards everything (bearer header included) and
 * can refuse the next order placements with a venue error whose text echoes back secrets: the ones
 * the request carried and whatever else the test writes. The worst a venue could do to the bot's
 * logs. It records what went through (placements' order ids and tx hashes, issued tokens), so a
 * test knows the identifiers that must stay readable and the secrets that must not appear.
 */
export interface SecretEchoProxy {
  readonly url: string;
  /** The next POST /v1/orders/place requests are answered 400, one per text, each written from what it carried. */
  refusePlaces(...texts: ((seen: PlacementSecrets) => string)[]): void;
  /** What each refused placement carried. */
  readonly echoed: PlacementSecrets[];
  /** The venue's answers to the placements forwarded. */
  readonly placed: { readonly orderId: string; readonly txHash: string }[];
  /** Token pairs the venue issued (login and refresh answers). */
  readonly tokens: { readonly access: string; readonly refresh: string }[];
  close(): Promise<void>;
}

const PLACE = '/v1/orders/place';
const TOKEN_PATHS = new Set(['/v1/auth/login', '/v1/auth/refresh']);

export async function startSecretEchoProxy(targetUrl: string): Promise<SecretEchoProxy> {
  const refusals: ((seen: PlacementSecrets) => string)[] = [];
  const proxy = {
    echoed: [] as PlacementSecrets[],
    placed: [] as { orderId: string; txHash: string }[],
    tokens: [] as { access: string; refresh: string }[],
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const refusal = path === PLACE ? refusals.shift() : undefined;
    if (refusal !== undefined) {
      const seen = secretsOf(body, req.headers.authorization);
      proxy.echoed.push(seen);
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'InvalidArgument', message: `InvalidArgument: ${refusal(seen)}` } }));
      return;
    }
    const headers: Record<string, string> = { 'content-type': req.headers['content-type'] ?? 'application/json' };
    if (req.headers.authorization !== undefined) headers['authorization'] = req.headers.authorization;
    const init: RequestInit = { method: req.method ?? 'GET', headers };
    if (body.length > 0) init.body = body;
    const answer = await fetch(`${targetUrl}${req.url ?? '/'}`, init);
    const text = await answer.text();
    if (answer.ok) record(proxy, path, text);
    res
      .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
      .end(text);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refusePlaces: (...texts) => void refusals.push(...texts),
    ...proxy,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function record(proxy: Pick<SecretEchoProxy, 'placed' | 'tokens'>, path: string, text: string): void {
  if (path === PLACE) {
    const { data } = JSON.parse(text) as { data: { order_id: string; tx_hash: string } };
    proxy.placed.push({ orderId: data.order_id, txHash: data.tx_hash });
  } else if (TOKEN_PATHS.has(path)) {
    const { data } = JSON.parse(text) as { data: { access_token: string; refresh_token: string } };
    proxy.tokens.push({ access: data.access_token, refresh: data.refresh_token });
  }
}

function secretsOf(body: Buffer, authorization: string | undefined): PlacementSecrets {
  const signature = (JSON.parse(body.toString()) as { permit?: { signature?: string } }).permit?.signature;
  const bearer = authorization?.replace(/^Bearer\s+/i, '');
  return { ...(signature === undefined ? {} : { signature }), ...(bearer === undefined ? {} : { bearer }) };
}
