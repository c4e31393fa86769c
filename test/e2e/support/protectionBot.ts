import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createRestClient, type RestClient } from '../../../src/venue/rest/restClient.js';
import { readAllTpslOrders } from '../../../src/venue/rest/tpslPages.js';
import { isActiveTpsl, type TpslOrderRecord } from '../../../src/venue/schemas/restTpsl.js';
import { REPO_ROOT, startPerpbotIn, type RunningPerpbot } from './spawnPerpbot.js';

/** `perpbot sim` as a user starts it (an external process), with the flags given; its REST and WebSocket URLs. */
export async function startExternalSim(
  flags: readonly string[],
): Promise<{ run: RunningPerpbot; restUrl: string; wsUrl: string; rest: RestClient }> {
  const run = startPerpbotIn(['sim', '--port', '0', ...flags], REPO_ROOT, {});
  for (let i = 0; i < 600 && !/perpbot-sim REST \S+/.test(run.output()); i++)
    await new Promise((r) => setTimeout(r, 50));
  const restUrl = /perpbot-sim REST (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output())?.[1];
  const wsUrl = /(ws:\/\/127\.0\.0\.1:\d+\/ws)/.exec(run.output())?.[1];
  if (restUrl === undefined || wsUrl === undefined) throw new Error(`no URLs printed: ${run.output()}`);
  return { run, restUrl, wsUrl, rest: createRestClient({ baseUrl: restUrl, timeoutMs: 10_000, rateLimit: false }) };
}

/**
 * A config of the bundled market maker on market 1 of an external simulator, with `protection`. Its max
 * inventory is more than one quote, so at the limit its one reducing quote is smaller than the position.
 */
export function writeProtectedMakerConfig(
  dir: string,
  sim: { restUrl: string; wsUrl: string },
  protection: string,
  extra = '',
): string {
  const path = join(dir, 'perpbot.yaml');
  writeFileSync(
    path,
    `
venue: { profile: sim, rest_url: ${sim.restUrl}, ws_url: ${sim.wsUrl} }
risk:
  max_order_notional: "100000"
  max_position_per_market: "1000000"
  max_open_orders: 20
  kill_switch: { max_loss: "100000" }
strategies:
  - name: market-maker
    module: strategies/marketMaker.ts
    markets: [1]
    params: { size: "0.001", spread_bps: 4, requote_bps: 3, max_inventory: "0.0015", skew_bps: 2, post_only: true }
    protection: ${protection}
logging: { level: info, pretty: false }
journal: { path: ${JSON.stringify(join(dir, 'journal.sqlite'))} }
${extra}`,
  );
  return path;
}

/** The account's active TP/SL orders (ACCEPTED or TRIGGERED), read as the bot reads them. */
export async function activeTpsl(rest: RestClient, account: string): Promise<TpslOrderRecord[]> {
  return (await readAllTpslOrders(rest, { account })).orders.filter(isActiveTpsl);
}

/** The account's signed position size on market 1 ("0" when flat). */
export async function signedPosition(rest: RestClient, account: string): Promise<string> {
  const answer = await rest.positions({ account, market_id: '1' });
  const row = answer.positions.find((p) => Number(p.market_id) === 1);
  if (row?.size === undefined || row.size === null || Number(row.size) === 0) return '0';
  // The simulator sends the size signed; a venue may send it unsigned with the side.
  if (row.size.startsWith('-')) return row.size;
  return row.side === 'SELL' ? `-${row.size}` : row.size;
}

export async function stopGracefully(run: RunningPerpbot): Promise<void> {
  if (run.child.exitCode !== null) return;
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
}
