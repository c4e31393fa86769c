import { describe, expect, it } from 'vitest';
import { REPO_ROOT, startPerpbotIn, type RunningPerpbot } from './support/spawnPerpbot.js';

/**
 * `perpbot sim` as a user starts it, with and without `--admin`: the test control
 * `POST /_sim/mark` moves a market's mark only when the flag was given (then GET /v1/markets and
 * the next block's oracle show it), and is refused otherwise.
 */
async function startSim(flags: readonly string[]): Promise<{ run: RunningPerpbot; rest: string }> {
  const run = startPerpbotIn(['sim', '--port', '0', '--block-ms', '50', ...flags], REPO_ROOT, {});
  for (let i = 0; i < 300 && !/perpbot-sim REST \S+/.test(run.output()); i++)
    await new Promise((r) => setTimeout(r, 50));
  const rest = /perpbot-sim REST (http:\/\/127\.0\.0\.1:\d+) /.exec(run.output())?.[1];
  if (rest === undefined) throw new Error(`no URL printed: ${run.output()}`);
  return { run, rest };
}

async function stop(run: RunningPerpbot): Promise<void> {
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
}

function postMark(rest: string, price: string): Promise<Response> {
  return fetch(`${rest}/_sim/mark`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ market_id: 1, price }),
  });
}

describe('perpbot sim --admin', () => {
  it('refuses POST /_sim/mark without --admin, and leaves the mark alone', async () => {
    const { run, rest } = await startSim([]);
    try {
      const answer = await postMark(rest, '12345');
      expect(answer.status).toBe(403);
      const body = (await answer.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('PermissionDenied');
      expect(body.error.message).toMatch(/test controls are off: start it with --admin/);
      const markets = (await (await fetch(`${rest}/v1/markets`)).json()) as {
        data: { markets: { mark_price: string }[] };
      };
      expect(Number(markets.data.markets[0]?.mark_price)).toBeGreaterThan(50_000);
    } finally {
      await stop(run);
    }
  }, 45_000);

  it('with --admin, sets the mark that GET /v1/markets then shows', async () => {
    const { run, rest } = await startSim(['--admin']);
    try {
      const answer = await postMark(rest, '12345');
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ data: { market_id: 1, mark_price: '12345' } });
      const markets = (await (await fetch(`${rest}/v1/markets`)).json()) as {
        data: { markets: { mark_price: string }[] };
      };
      // Within the oracle's per-block walk (3 bps a block) of the price set.
      expect(Math.abs(Number(markets.data.markets[0]?.mark_price) - 12_345)).toBeLessThan(100);
    } finally {
      await stop(run);
    }
  }, 45_000);
});
