import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareDecimals } from '../../src/core/decimal.js';
import type { ReplayReport } from '../../src/runtime/replay/replayReport.js';
import { fallingRecording } from '../runtime/replay/fallingRecording.js';
import { REPO_ROOT, spawnPerpbot } from './support/spawnPerpbot.js';

/**
 * `perpbot replay` of a protected strategy as a user runs it: the bundled market maker with
 * `protection: { stop_loss_bps: 30 }` in the config, on a recording whose mark falls 1 % through
 * the stop. The spawned CLI's report.json lists the stop that fired, its execution's fill and its
 * realised PnL under the strategy, and the page it wrote draws in headless Chromium.
 */
describe('perpbot replay with protection (spawned)', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'perpbot-replay-stops-'));
    await fallingRecording(join(dir, 'rec'));
    await writeFile(
      join(dir, 'protected.yaml'),
      `
venue: { profile: sim }
risk:
  max_order_notional: "100000"
  max_position_per_market: "1000000"
  max_open_orders: 20
  kill_switch: { max_loss: "100000" }
strategies:
  - name: market-maker
    module: strategies/marketMaker.ts
    markets: [1]
    params: { size: "0.001", spread_bps: 4, requote_bps: 3, max_inventory: "0.001", skew_bps: 2, post_only: true }
    protection: { stop_loss_bps: 30, trigger: mark }
logging: { level: info, pretty: false }
`,
    );
  }, 30_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('report.json lists the stops: the one the falling mark fired, its fill and realised PnL, the one held at the end', async () => {
    const run = await spawnPerpbot([
      'replay',
      join(dir, 'rec'),
      '--config',
      join(dir, 'protected.yaml'),
      '--out',
      join(dir, 'out'),
    ]);
    expect(run.stderr).not.toMatch(/"level":(50|60)/);
    expect(run.code).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'out', 'report.json'), 'utf8')) as ReplayReport;
    const stops = report.strategies[0]!.stops!;
    expect(stops).toMatchObject({ placed: expect.any(Number), refused: 0 });
    expect(stops.executed).toBeGreaterThanOrEqual(1);
    const [fired] = stops.orders.filter((o) => o.state === 'executed');
    expect(fired).toMatchObject({
      role: 'stop_loss',
      side: 'sell',
      size: '0.001',
      trigger: 'mark',
      filledSize: '0.001',
    });
    expect(compareDecimals(fired!.triggeredPrice!, fired!.stopPrice)).toBeLessThanOrEqual(0);
    expect(compareDecimals(fired!.realisedPnl, '0')).toBe(-1);
    // Its fill is among the account's, a taker sell at the time the stop ended.
    expect(report.series.fills).toContainEqual(
      expect.objectContaining({ t: fired!.endT, side: 'sell', size: '0.001', liquidity: 'taker' }),
    );
    expect(report.totals.realisedPnl).toBe(stops.realisedPnl);
    expect(stops.orders.at(-1)!.state).toBe('accepted');

    const page = await readFile(join(dir, 'out', 'report.html'), 'utf8');
    expect(page).toContain('data-testid="stops" data-strategy="market-maker"');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(REPO_ROOT, 'tools', 'screenshotReplay.mjs'), join(dir, 'out', 'report.html'), join(dir, 'page.png')],
      { cwd: REPO_ROOT },
    );
    expect(stdout).toContain('3 of 3 plots drawn');
  }, 120_000);
});
