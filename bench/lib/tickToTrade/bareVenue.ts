import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { orderIdHex, wideOrderId } from '../../../src/sim/exchange/orderIds.js';

/**
 * The venue's order endpoint reduced to answering at once: a node:http server in the bench's
 * process that reads a POST /v1/orders/place body and returns a placement answer shaped like the
 * simulator's (a fresh order id per request). It checks nothing, so the time a request takes is
 * the client's alone.
 */
export interface BareVenue {
  readonly url: string;
  readonly port: number;
  /** Placements answered whose body carried a permit. */
  signedPlacements(): number;
  close(): Promise<void>;
}

export async function startBareVenue(): Promise<BareVenue> {
  let sequence = 0n;
  let signed = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/orders/place') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"error":{"code":"NotFound","message":"bare venue: place only"}}');
        return;
      }
      if (Buffer.concat(chunks).includes('"permit":{')) signed++;
      sequence += 1n;
      const text = JSON.stringify({
        data: {
          order_id: orderIdHex(wideOrderId(sequence, 0)),
          tx_hash: `0x${sequence.toString(16).padStart(64, '0')}`,
          block_number: 1,
          filled_quantity: '0',
          filled_percent: '0',
          message: 'order placed',
        },
        request_id: `bare-${sequence}`,
      });
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    signedPlacements: () => signed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
