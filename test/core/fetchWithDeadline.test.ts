import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyTooLargeError, DeadlineError, fetchWithDeadline, whyNoAnswer } from '../../src/core/fetchWithDeadline.js';
import { forceGc } from './support/forceGc.js';

describe('fetchWithDeadline', () => {
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
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }

  it('ends a request to a peer that never answers at its deadline, though a garbage collection ran while it waited', async () => {
    const url = await serve(() => undefined);
    const lifetime = new AbortController();
    const startedAt = Date.now();
    const pending = fetchWithDeadline(
      url,
      { method: 'POST', body: 'x' },
      { timeoutMs: 400, lifetime: lifetime.signal },
    );
    const outcome = pending.then(
      () => 'answered',
      (error: unknown) => error,
    );
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      forceGc();
    }
    const error = await Promise.race([
      outcome,
      new Promise((resolve) => setTimeout(() => resolve('still pending'), 3_000)),
    ]);
    expect(error).toBeInstanceOf(DeadlineError);
    expect((error as DeadlineError).name).toBe('TimeoutError');
    // At its deadline, not never: the race above gives up after 3 s.
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(400);
  });

  it('ends a body that stalls after the headers at the same deadline', async () => {
    const url = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    await expect(fetchWithDeadline(url, {}, { timeoutMs: 300 })).rejects.toBeInstanceOf(DeadlineError);
  });

  it('ends with the lifetime, and leaves no listener on it', async () => {
    const url = await serve(() => undefined);
    const lifetime = new AbortController();
    const pending = fetchWithDeadline(url, {}, { timeoutMs: 10_000, lifetime: lifetime.signal });
    setTimeout(() => lifetime.abort(new Error('shutting down')), 50);
    await expect(pending).rejects.toThrow('shutting down');
    const kept = new AbortController();
    const ok = await serve((_, res) => res.end('fine'));
    for (let i = 0; i < 3; i++) await fetchWithDeadline(ok, {}, { timeoutMs: 1_000, lifetime: kept.signal });
    // Node counts listeners on the signal's event target: none left behind by finished exchanges.
    expect(getEventListeners(kept.signal, 'abort')).toHaveLength(0);
  });

  it('reads a body up to its cap and refuses a larger one, declared or streamed', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/declared') res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000));
      else {
        res.writeHead(200);
        for (let i = 0; i < 10; i++) res.write('y'.repeat(1000));
        res.end();
      }
    });
    const small = await fetchWithDeadline(`${url}small`, {}, { timeoutMs: 1_000, maxBodyBytes: 20_000 });
    expect(small.text()).toBe('y'.repeat(10_000));
    await expect(
      fetchWithDeadline(`${url}declared`, {}, { timeoutMs: 1_000, maxBodyBytes: 4_096 }),
    ).rejects.toBeInstanceOf(BodyTooLargeError);
    await expect(fetchWithDeadline(`${url}streamed`, {}, { timeoutMs: 1_000, maxBodyBytes: 4_096 })).rejects.toThrow(
      'the body is larger than 4096 bytes',
    );
  });
});

describe('whyNoAnswer', () => {
  it("says the deadline, or fetch's words with the network's code or words beside them", () => {
    expect(whyNoAnswer(new DeadlineError(250), 250)).toBe('no answer within 250 ms');
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(whyNoAnswer(new TypeError('fetch failed', { cause: refused }), 250)).toBe('fetch failed: ECONNREFUSED');
    expect(whyNoAnswer(new TypeError('fetch failed', { cause: new Error('bad port') }), 250)).toBe(
      'fetch failed: bad port',
    );
    expect(whyNoAnswer(new Error('socket hang up'), 250)).toBe('socket hang up');
    expect(whyNoAnswer('down', 250)).toBe('down');
  });
});
