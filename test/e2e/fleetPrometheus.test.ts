import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { boardQueries, expandVariables, readBoard } from '../deploy/support/grafanaBoard.js';
import { metricNamesIn } from '../deploy/support/promqlNames.js';
import { promtool } from '../deploy/support/promtool.js';
import { until } from './support/journalBot.js';
import { startPrometheus, type TestPrometheus } from './support/prometheusServer.js';
import { parsePrometheus } from './support/serviceBot.js';
import { fundedAccount, type SimAccount } from './support/simAccount.js';
import { REPO_ROOT, startPerpbotIn, type RunningPerpbot } from './support/spawnPerpbot.js';

/**
 * A desk in small: two bots, two accounts, one simulator, each `perpbot start` spawned as a
 * service manager runs it, and Debian's Prometheus on the shipped scrape config and rules. Through
 * Prometheus's HTTP API both targets are up and both accounts' PnL exists; every query of the
 * Grafana board runs; `promtool check metrics` on a live /metrics reports nothing and its labels
 * hold no order id or price; after one bot is killed, its PerpbotDown goes pending, then fires
 * (a 3 s `for:` in the test's copy of the rules), and the other bot stays up.
 */
const TOKEN = 'fleet-control-token-0123456789abcdef';

interface DeskBot {
  readonly name: string;
  readonly who: SimAccount;
  readonly cli: RunningPerpbot;
  /** The control server's host:port, once it listens. */
  target: string;
}

function deskConfig(sim: RunningSim, dir: string, name: string): string {
  return `
venue: { profile: sim, rest_url: ${sim.restUrl}, ws_url: ${sim.wsUrl} }
risk:
  max_order_notional: "1000"
  max_position_per_market: "5000"
  max_open_orders: 10
  max_actions_per_second: 20
  kill_switch: { max_loss: "100" }
strategies:
  - name: market-maker
    module: strategies/marketMaker.ts
    markets: [1]
    params: { size: "0.001", spread_bps: 4, requote_bps: 3, max_inventory: "0.01" }
logging: { level: info, pretty: false }
journal: { path: ${JSON.stringify(join(dir, name, 'journal.sqlite'))} }
control: { port: 0 }
`;
}

describe('a fleet of two bots scraped by a real Prometheus', () => {
  let sim: RunningSim;
  let dir: string;
  let prometheus: TestPrometheus | undefined;
  const bots: DeskBot[] = [];

  beforeAll(async () => {
    sim = await startSim({ port: 0, blockMs: 200, registrationLagMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'perpbot-fleet-'));
    // From the repository, with its strategies/marketMaker.ts: the second bot starts once the first
    // has type-checked it, and finds the check done (a cache hit, no second check).
    for (const name of ['desk-a', 'desk-b']) {
      const who = await fundedAccount(sim);
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, `${name}.yaml`), deskConfig(sim, dir, name));
      const cli = startPerpbotIn(['start', '--config', join(dir, `${name}.yaml`)], REPO_ROOT, {
        PERPBOT_ACCOUNT_KEY: who.accountKey,
        PERPBOT_SIGNER_KEY: who.signerKey,
        PERPBOT_CONTROL_TOKEN: TOKEN,
      });
      bots.push({ name, who, cli, target: '' });
      await until(() => /"msg":"strategy types ok"|^perpbot:/m.test(cli.output()), 60_000);
    }
    for (const bot of bots) {
      await until(() => /"msg":"bot running"/.test(bot.cli.output()), 60_000).catch((error: unknown) => {
        throw new Error(`${bot.name} did not start:\n${bot.cli.output().slice(-3000)}`, { cause: error });
      });
      bot.target = /"url":"http:\/\/([^"]+)","killSwitchEndpoint"/.exec(bot.cli.output())?.[1] ?? '';
    }
    prometheus = await startPrometheus({ dir, targets: bots.map((b) => b.target), forOf: { PerpbotDown: '3s' } });
  }, 120_000);

  afterAll(async () => {
    await prometheus?.close();
    for (const bot of bots) {
      bot.cli.child.kill('SIGKILL');
      await bot.cli.exited;
    }
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = async (expr: string) =>
    (
      await prometheus!.api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>('query', {
        query: expr,
      })
    ).result;

  it('starts the second bot without checking the strategy the first one checked', () => {
    expect(bots[1]!.cli.output()).toMatch(/"checked":"before, unchanged since".*"msg":"strategy types ok"/);
  });

  it('scrapes both bots, and both accounts have their PnL series', async () => {
    await until(async () => {
      const targets = await prometheus!.api<{ activeTargets: { health: string; labels: { job: string } }[] }>(
        'targets',
      );
      return targets.activeTargets.filter((t) => t.labels.job === 'perpbot' && t.health === 'up').length === 2;
    }, 20_000);
    await until(async () => (await query('account:perpbot_pnl_usdc:net')).length === 2, 20_000);
    const pnl = await query('account:perpbot_pnl_usdc:net');
    expect(pnl.map((s) => s.metric['account']?.toLowerCase()).sort()).toEqual(
      bots.map((b) => b.who.account.toLowerCase()).sort(),
    );
    expect(pnl.map((s) => s.metric['config']).sort()).toEqual(['desk-a', 'desk-b']);
  });

  it('runs every query of the Grafana board, each reading metrics the bots serve', async () => {
    // Every family the bot serves (a counter that never moved has its TYPE line and no sample yet).
    const exposition = await (await fetch(`http://${bots[0]!.target}/metrics`)).text();
    const served = new Set(
      [...exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) =>
        type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name!],
      ),
    );
    for (const q of boardQueries(readBoard())) {
      await expect(query(expandVariables(q.expr)), q.where).resolves.toBeInstanceOf(Array);
      for (const name of metricNamesIn(q.expr).filter((n) => n.startsWith('perpbot_')))
        expect(served.has(name), `${q.where} reads ${name}`).toBe(true);
    }
  });

  it('serves /metrics that promtool check metrics passes, with no order id or price in a label', async () => {
    const bot = bots[0]!;
    await until(async () => {
      const status = (await (await fetch(`http://${bot.target}/api/status`)).json()) as { openOrders: unknown[] };
      return status.openOrders.length > 0;
    }, 20_000);
    const text = await (await fetch(`http://${bot.target}/metrics`)).text();
    const status = (await (await fetch(`http://${bot.target}/api/status`)).json()) as {
      openOrders: { orderId: string | null; intentId: string; price: string; size: string }[];
      recentFills: { id: string; price: string }[];
    };
    const run = await promtool(['check', 'metrics'], text);
    expect(run.stdout + run.stderr).toBe('');
    expect(run.code).toBe(0);
    const unbounded = new Set([
      ...status.openOrders.flatMap((o) => [o.orderId ?? '', o.intentId, o.price]),
      ...status.recentFills.flatMap((f) => [f.id, f.price]),
    ]);
    unbounded.delete('');
    expect(unbounded.size).toBeGreaterThan(0);
    for (const sample of parsePrometheus(text))
      for (const [label, value] of Object.entries(sample.labels))
        expect(unbounded.has(value), `${sample.name}{${label}="${value}"}`).toBe(false);
  });

  it('answers a kill-switch request without the token 401, with a message that says what is missing', async () => {
    const answer = await fetch(`http://${bots[1]!.target}/api/kill-switch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'trip' }),
    });
    expect(answer.status).toBe(401);
    const body = (await answer.json()) as { error: string; hints: string[] };
    expect(body.error).toMatch(/token/);
    expect(JSON.stringify(body)).not.toContain('[redacted]');
  });

  it("puts a killed bot's PerpbotDown pending, then firing, and leaves the other bot up", async () => {
    const [killed, alive] = bots as [DeskBot, DeskBot];
    killed.cli.child.kill('SIGKILL');
    await killed.cli.exited;
    const downAlerts = async () =>
      (await prometheus!.api<{ alerts: { labels: Record<string, string>; state: string }[] }>('alerts')).alerts.filter(
        (a) => a.labels['alertname'] === 'PerpbotDown',
      );
    const seen = new Set<string>();
    await until(async () => {
      for (const alert of await downAlerts()) {
        expect(alert.labels['instance']).toBe(killed.target);
        seen.add(alert.state);
      }
      return seen.has('firing');
    }, 30_000);
    expect([...seen].sort()).toEqual(['firing', 'pending']);
    const up = await query('up{job="perpbot"}');
    expect(Object.fromEntries(up.map((s) => [s.metric['instance'], s.value[1]]))).toEqual({
      [killed.target]: '0',
      [alive.target]: '1',
    });
  });
});
