import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { requestKillSwitch } from '../../../../src/runtime/operations/control/killSwitchRequest.js';

const TOKEN = 'kill-switch-request-token-0123456789';

/** A control server stand-in that answers every request with `status` and `body`, and records what it got. */
async function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  const seen: { method?: string; authorization?: string; contentType?: string; body: string }[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      seen.push({
        ...(req.method === undefined ? {} : { method: req.method }),
        ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }),
        ...(req.headers['content-type'] === undefined ? {} : { contentType: req.headers['content-type'] }),
        body: text,
      });
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

describe('requestKillSwitch', () => {
  it("posts the action and reason as JSON with the bearer token, and returns the bot's answer", async () => {
    const bot = await answering(200, { action: 'trip', killSwitch: { tripped: true, reason: 'drill' } });
    const done = await requestKillSwitch({ url: bot.url, token: TOKEN, action: 'trip', reason: 'drill' });
    expect(done).toEqual({ action: 'trip', killSwitch: { tripped: true, reason: 'drill' } });
    expect(bot.seen).toEqual([
      {
        method: 'POST',
        authorization: `Bearer ${TOKEN}`,
        contentType: 'application/json',
        body: '{"action":"trip","reason":"drill"}',
      },
    ]);
  });

  it.each([
    [403, {}, { error: 'no control token configured' }, /HTTP 403: no control token configured.*stop it \(SIGTERM\)/s],
    [429, { 'retry-after': '17' }, { error: 'too many' }, /HTTP 429: too many.*try again in 17 s/s],
    [409, {}, { error: 'trading stopped for a definite reason' }, /refused the reset \(HTTP 409: trading stopped/],
    [500, {}, 'not an object', /refused the reset \(HTTP 500\)$/m],
  ])('refuses HTTP %i with what the bot said and what to do, never the token', async (status, headers, body, said) => {
    const bot = await answering(status, body, headers);
    const error = await requestKillSwitch({ url: bot.url, token: TOKEN, action: 'reset' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'KILL_SWITCH_FAILED',
      details: { url: bot.url, action: 'reset', httpStatus: status },
    });
    const text = `${(error as Error).message}\n${((error as { hints: string[] }).hints ?? []).join('\n')}`;
    expect(text).toMatch(said);
    expect(text).not.toContain(TOKEN);
  });

  it("refuses a 200 that is not a control server's answer, naming the URL", async () => {
    const other = await answering(200, '<html>not a bot</html>');
    await expect(requestKillSwitch({ url: other.url, token: TOKEN, action: 'trip' })).rejects.toMatchObject({
      code: 'KILL_SWITCH_FAILED',
      message: `the answer of ${other.url} is not a perpbot control server's (HTTP 200, "<html>not a bot</html>")`,
    });
  });

  it('says the bot did not answer, with the network code, and how to take the orders off without it', async () => {
    const bot = await answering(200, {});
    const closed = bot.url;
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
    const error = await requestKillSwitch({ url: closed, token: TOKEN, action: 'trip' }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`the bot at ${closed} did not answer (fetch failed: ECONNREFUSED)`);
    expect((error as { hints: string[] }).hints.join('\n')).toContain('perpbot cancel-all');
  });
});
