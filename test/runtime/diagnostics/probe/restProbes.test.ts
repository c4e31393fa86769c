import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PROBE_MAX_BODY_BYTES, probeRest } from '../../../../src/runtime/diagnostics/probe/probeRest.js';
import { REST_PROBES, restReads, type RestRead } from '../../../../src/runtime/diagnostics/probe/restProbes.js';
import type { WireDecodeFailure } from '../../../../src/venue/wireDecodeFailure.js';
import { forceGc } from '../../../core/support/forceGc.js';

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const SIGNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('the REST probe table', () => {
  it('without keys: only the public reads, the private ones skipped with the reason', () => {
    const { reads, skipped } = restReads(REST_PROBES, { markets: [1, 2] });
    expect(reads.map((r) => r.name)).toEqual([
      'GET /v1/system/config',
      'GET /v1/auth/eip712-domain',
      'GET /v1/markets',
      'GET /v1/auth/nonce',
      'GET /v1/orderbook?market_id=1',
      'GET /v1/orderbook?market_id=2',
      'GET /v1/markets/id/{id}/trade-history?market_id=1',
      'GET /v1/markets/id/{id}/trade-history?market_id=2',
      'GET /v1/markets/id/{id}/funding-rate-history?market_id=1',
      'GET /v1/markets/id/{id}/funding-rate-history?market_id=2',
    ]);
    // venue-wire.md §2: the login nonce needs no account.
    expect(reads.find((r) => r.name === 'GET /v1/auth/nonce')?.path).toBe('/v1/auth/nonce');
    expect(skipped.map((s) => s.name)).toEqual(
      expect.arrayContaining(['GET /v1/account/position', 'GET /v1/positions', 'GET /v1/portfolio/details']),
    );
    expect(skipped.find((s) => s.name === 'GET /v1/orders')?.reason).toMatch(/account key/);
  });

  it('with both keys: every read, one per market where the endpoint is per market, sources as the client labels them', () => {
    const { reads, skipped } = restReads(REST_PROBES, { markets: [1, 2], account: ACCOUNT, signer: SIGNER });
    expect(skipped).toEqual([]);
    expect(reads.find((r) => r.name === 'GET /v1/auth/nonce')?.path).toBe(`/v1/auth/nonce?account=${ACCOUNT}`);
    expect(reads.filter((r) => r.name.startsWith('GET /v1/account/position')).map((r) => r.path)).toEqual([
      `/v1/account/position?account=${ACCOUNT}&market_id=1`,
      `/v1/account/position?account=${ACCOUNT}&market_id=2`,
    ]);
    expect(reads.find((r) => r.path.startsWith('/v1/nonce-state/'))?.source).toBe('rest:GET /v1/nonce-state/{account}');
    expect(reads.find((r) => r.name === 'GET /v1/auth/session-key-status')?.path).toContain(`signer=${SIGNER}`);
    // Read-only: nothing but GETs in the table.
    expect(REST_PROBES.every((p) => p.endpoint.startsWith('GET '))).toBe(true);
    // The TP/SL list: both stop types (the venue's default omits every stop-loss) and every status.
    const tpsl = new URL(reads.find((r) => r.name === 'GET /v1/orders/tpsl')?.path ?? '', 'http://venue.test');
    expect(tpsl.searchParams.get('account')).toBe(ACCOUNT);
    expect(tpsl.searchParams.get('stop_type')).toBe('STOP_TYPE_NONE');
    expect(tpsl.searchParams.getAll('statuses')).toEqual([
      'TPSL_ORDER_STATUS_ACCEPTED',
      'TPSL_ORDER_STATUS_TRIGGERED',
      'TPSL_ORDER_STATUS_SUCCESS',
      'TPSL_ORDER_STATUS_CANCELLED',
    ]);
  });

  it('with the account alone: the account reads, the signer status skipped', () => {
    const { reads, skipped } = restReads(REST_PROBES, { markets: [1], account: ACCOUNT });
    expect(reads.some((r) => r.name === 'GET /v1/trade-history')).toBe(true);
    expect(skipped).toEqual([{ name: 'GET /v1/auth/session-key-status', reason: expect.stringMatching(/signer key/) }]);
  });
});

describe('probeRest', () => {
  const read: RestRead = {
    name: 'GET /v1/thing',
    source: 'rest:GET /v1/thing',
    path: '/v1/thing',
    schema: z.object({ data: z.object({ market_id: z.string(), side: z.number() }) }),
  };
  const answering =
    (status: number, body: string): typeof fetch =>
    () =>
      Promise.resolve(new Response(body, { status }));

  async function probeWith(status: number, body: string) {
    const saved: { failure: WireDecodeFailure; raw: unknown }[] = [];
    const [row] = await probeRest([read], {
      baseUrl: 'http://venue.test',
      timeoutMs: 1000,
      fetch: answering(status, body),
      saveSample: (failure, raw) => {
        saved.push({ failure, raw });
        return Promise.resolve('/samples/one.json');
      },
    });
    return { row, saved };
  }

  it('ok when the body decodes with the schema', async () => {
    const { row, saved } = await probeWith(200, '{"data":{"market_id":"1","side":0},"extra":true}');
    expect(row).toMatchObject({ kind: 'rest', name: 'GET /v1/thing', status: 'ok' });
    expect(saved).toEqual([]);
  });

  it('departed with the field, the expected and the received type, and the raw body sampled', async () => {
    const { row, saved } = await probeWith(200, '{"data":{"market_id":1,"side":0}}');
    expect(row).toMatchObject({
      status: 'departed',
      failure: { source: 'rest:GET /v1/thing', field: 'data.market_id', expected: 'string', received: 'number 1' },
      sample: '/samples/one.json',
    });
    expect(row?.detail).toBe('data.market_id: expected string, received number 1');
    expect(saved[0]?.raw).toEqual({ data: { market_id: 1, side: 0 } });
  });

  it('failed with the venue words on an HTTP error, and with the cause when nothing answers', async () => {
    const { row } = await probeWith(500, '{"error":{"code":"Internal","message":"account not found"}}');
    expect(row).toMatchObject({ status: 'failed', detail: 'HTTP 500: Internal: account not found' });
    const [dead] = await probeRest([read], {
      baseUrl: 'http://venue.test',
      timeoutMs: 1000,
      fetch: () => Promise.reject(new Error('connect ECONNREFUSED')),
      saveSample: () => Promise.resolve(undefined),
    });
    expect(dead).toMatchObject({ status: 'failed', detail: 'no answer: connect ECONNREFUSED' });
  });

  describe('against a real server', () => {
    const servers: Server[] = [];
    afterEach(async () => {
      for (const server of servers.splice(0)) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
    async function serve(handler: RequestListener): Promise<string> {
      const server = createServer(handler);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
    const probe = (baseUrl: string, timeoutMs = 1_000) =>
      probeRest([read], { baseUrl, timeoutMs, saveSample: () => Promise.resolve(undefined) });

    it('fails the row of a venue that never answers at the deadline, though a garbage collection ran meanwhile', async () => {
      const baseUrl = await serve(() => undefined);
      const collect = setInterval(forceGc, 50);
      try {
        const startedAt = Date.now();
        const rows = await Promise.race([
          probe(baseUrl, 300),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the probe hangs')), 3_000)),
        ]);
        expect(rows[0]).toMatchObject({ status: 'failed', detail: 'no answer: no complete answer within 300 ms' });
        expect(Date.now() - startedAt).toBeLessThan(2_500);
      } finally {
        clearInterval(collect);
      }
    });

    it('reads no more than its cap of a huge body', async () => {
      const baseUrl = await serve((_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        // Writes until the client goes away: 8 MiB is read at most.
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => undefined);
        pump();
      });
      const [row] = await probe(baseUrl, 10_000);
      expect(row).toMatchObject({
        status: 'failed',
        detail: `no answer: the body is larger than ${PROBE_MAX_BODY_BYTES} bytes; not read further`,
      });
    });

    it('follows a redirect within the venue, never one to another host', async () => {
      const other = await serve((_, res) => res.end('{"data":{"market_id":"1","side":0}}'));
      const baseUrl = await serve((req, res) => {
        if (req.url === '/v1/thing') res.writeHead(302, { location: '/v1/moved' }).end();
        else if (req.url === '/v1/moved') res.writeHead(307, { location: `${other}/v1/thing` }).end();
      });
      const [row] = await probe(baseUrl);
      expect(row).toMatchObject({ status: 'failed' });
      expect(row?.detail).toBe(
        `no answer: HTTP 307 redirects to another host (${other}), which the probe does not follow`,
      );
      const same = await serve((req, res) => {
        if (req.url === '/v1/thing') res.writeHead(301, { location: '/v1/here' }).end();
        else res.end('{"data":{"market_id":"1","side":0}}');
      });
      expect((await probe(same))[0]).toMatchObject({ status: 'ok' });
    });
  });
});
