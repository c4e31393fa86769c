import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { boardQueries, BOARD_PATH, expandVariables, readBoard } from './support/grafanaBoard.js';
import { promtool } from './support/promtool.js';
import { exposedNames, metricNamesIn } from './support/promqlNames.js';

/**
 * The fleet board (deploy/grafana/perpbot-fleet.json): provisioning-ready JSON, its template
 * variables, every query parsed by promtool with the variables as Grafana fills them in, and every
 * metric it reads one that a bot exposes. test/e2e/fleetPrometheus.test.ts runs the same queries
 * against a real Prometheus scraping two bots.
 */
const board = readBoard();
const queries = boardQueries(board);
const dir = mkdtempSync(join(tmpdir(), 'perpbot-board-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Grafana fleet board', () => {
  it('is a dashboard with a uid, a Prometheus datasource variable and job, account and strategy variables', () => {
    expect(board.uid).toBe('perpbot-fleet');
    const variables = Object.fromEntries(board.templating.list.map((v) => [v.name, v]));
    expect(variables['datasource']).toMatchObject({ type: 'datasource', query: 'prometheus' });
    for (const name of ['job', 'account', 'strategy']) expect(variables[name], name).toMatchObject({ type: 'query' });
    const text = readFileSync(BOARD_PATH, 'utf8');
    // Every panel reads the datasource variable, so a provisioned Prometheus of any uid works.
    expect(text).not.toMatch(/"uid":\s*"(?!\$\{datasource\}|perpbot-fleet)/);
  });

  it('every query parses (promtool check rules, one recording rule per query)', async () => {
    const file = join(dir, 'board.rules.yml');
    const rules = queries.map((q, i) => ({ record: `board:query_${i}`, expr: expandVariables(q.expr) }));
    writeFileSync(file, JSON.stringify({ groups: [{ name: 'board', rules }] }));
    const run = await promtool(['check', 'rules', file]);
    // A failure names the rule: board:query_<i> is queries[i].
    expect(run.stdout + run.stderr, queries.map((q, i) => `${i}: ${q.where}`).join('\n')).toContain(
      `SUCCESS: ${queries.length} rules found`,
    );
    expect(run.code).toBe(0);
  });

  it('reads only metrics a bot exposes (and up and ALERTS)', async () => {
    const exposed = await exposedNames();
    exposed.add('up');
    exposed.add('ALERTS');
    for (const q of queries) {
      expect(metricNamesIn(q.expr).length, `${q.where} reads no metric`).toBeGreaterThan(0);
      for (const name of metricNamesIn(q.expr)) expect(exposed, `${q.where} reads ${name}`).toContain(name);
    }
  });

  it('shows what a desk watches: PnL and drawdown, positions, orders, protection, latency histograms, reconnects, degraded time, alerts', () => {
    const read = new Set(queries.flatMap((q) => metricNamesIn(q.expr)));
    for (const name of [
      'perpbot_pnl_usdc',
      'perpbot_equity_usdc',
      'perpbot_position_size',
      'perpbot_open_orders',
      'perpbot_position_unprotected',
      'perpbot_tpsl_orders',
      'perpbot_protection_budget_low',
      'perpbot_tick_to_trade_seconds_bucket',
      'perpbot_rest_request_duration_seconds_bucket',
      'perpbot_reconnects_total',
      'perpbot_degraded_seconds_total',
      'ALERTS',
    ])
      expect(read, name).toContain(name);
    expect(
      queries.some((q) => /max_over_time\(perpbot_equity_usdc/.test(q.expr)),
      'drawdown',
    ).toBe(true);
  });

  it('joins on perpbot_info to filter by account, in every panel query that reads a bot metric', () => {
    for (const q of queries.filter((q) => !q.where.startsWith('variable') && /perpbot_(?!info)/.test(q.expr)))
      expect(q.expr, q.where).toMatch(
        /group_left \([^)]*account[^)]*\) perpbot_info\{job=~"\$job", account=~"\$account"\}/,
      );
  });

  it('its provisioning files name the board and a Prometheus datasource', () => {
    const dashboards = parse(
      readFileSync(join(BOARD_PATH, '..', 'provisioning', 'dashboards', 'perpbot.yml'), 'utf8'),
    ) as {
      providers: { type: string; options: { path: string } }[];
    };
    expect(dashboards.providers[0]).toMatchObject({ type: 'file' });
    const sources = parse(
      readFileSync(join(BOARD_PATH, '..', 'provisioning', 'datasources', 'prometheus.yml'), 'utf8'),
    ) as {
      datasources: { type: string }[];
    };
    expect(sources.datasources[0]).toMatchObject({ type: 'prometheus' });
  });
});
