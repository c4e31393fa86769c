import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { parse } from 'yaml';
import { startSim, type RunningSim } from '../../src/sim/startSim.js';
import { until } from './support/journalBot.js';
import { fundedAccount } from './support/simAccount.js';
import { REPO_ROOT, startPerpbotIn, type CliRun, type RunningPerpbot } from './support/spawnPerpbot.js';
import { inject } from 'vitest';

/**
 * What a new user meets in the first hour, each through the spawned CLI in a directory of its own
 * (a project: strategies/, a config, node_modules): start refuses a strategy that perpbot check
 * refuses, with the same problem; a module that throws at import shows why; record needs no
 * risk:; a config error names a default config that is there; the simulator's default block is
 * the one the docs give; the README's first strategy moves its bid with the mark; the package
 * ships what its guides link to. (The control server's 401 text: test/e2e/fleetPrometheus.test.ts.)
 */
const STRATEGY_INDEX = JSON.stringify(join(REPO_ROOT, 'src', 'strategy', 'index.js'));
const RISK = `risk:
  max_order_notional: "1000"
  max_position_per_market: "5000"
  max_open_orders: 10
  max_actions_per_second: 10
  kill_switch: { max_loss: "100" }`;

let dir = '';
const running: RunningPerpbot[] = [];

/** The CLI in `dir`, as a user in their project runs it. */
function perpbot(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PERPBOT_')));
  return new Promise((done) => {
    execFile(
      process.execPath,
      [inject('perpbotMain'), ...args],
      // The type checks of the steps that run side by side share the two cores: a margin for a loaded machine.
      { cwd: dir, env: { ...base, ...env }, timeout: 90_000 },
      (error, stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    );
  });
}

function write(path: string, text: string): void {
  writeFileSync(join(dir, path), text);
}

/** A config for strategy `module` against a venue at `restUrl` (a closed port: nothing may reach it). */
function configFor(module: string, restUrl = 'http://127.0.0.1:1', extra = ''): string {
  return `venue: { profile: sim, rest_url: ${restUrl}, ws_url: ${restUrl.replace('http', 'ws')}/ws }
${RISK}
strategies:
  - name: mine
    module: ${module}
    markets: [1]
    params: { size: "0.001" }
logging: { level: info, pretty: false }
journal: { path: ${JSON.stringify(join(dir, `${module.replace(/\W/g, '-')}.sqlite`))} }
${extra}`;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'perpbot-first-hour-'));
  mkdirSync(join(dir, 'strategies'));
  // The project's own dependencies (rxjs, zod), as after `npm install perpbot`.
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  // A module that throws at import: its start shows why, and record, which never trades, never loads it.
  // It throws before anything else (so its type check reads no perpbot types and takes no time).
  write(
    'strategies/throws.ts',
    `const settings: Record<string, string> = {};
if (settings['feed'] === undefined) throw new Error('throws.ts needs a feed setting');
export default settings;
`,
  );
});
afterAll(async () => {
  for (const cli of running) {
    cli.child.kill('SIGKILL');
    await cli.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

// Concurrent: each step is a command of its own on files of its own, and most of their time is a
// strategy's type check or a bot's start; one after another they were the suite's longest file.
describe.concurrent('the first hour of a new user', () => {
  it('start refuses a strategy with a type error (size: 0.001), naming the problem as perpbot check does', async ({
    expect,
  }) => {
    write(
      'strategies/typo.ts',
      `import { map } from 'rxjs';
import { z } from 'zod';
import { defineStrategy } from ${STRATEGY_INDEX};

export default defineStrategy({
  name: 'typo',
  description: 'a bid with a number for its size',
  params: z.object({ size: z.string() }),
  run: (ctx) =>
    ctx.streams.mark(1).pipe(
      map((m) => ctx.intents.placeLimit({ marketId: 1, side: 'buy', size: 0.001, price: m.markPrice, priceRounding: 'down', postOnly: true })),
    ),
});
`,
    );
    write('typo.yaml', configFor('strategies/typo.ts'));
    const start = await perpbot(['start', '--config', 'typo.yaml']);
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(
      /^perpbot: strategy module "strategies\/typo\.ts" \(strategies\[0\]\.module\) does not type-check \(1 problem\(s\)\)/,
    );
    // The line perpbot check prints for it (both run the one check: src/runtime/cli/commands/typeCheckStrategy.ts).
    expect(start.stderr).toMatch(
      /strategies\/typo\.ts\(11,\d+\): error TS2322: Type 'number' is not assignable to type 'string'\./,
    );
    expect(start.stderr).toContain('perpbot check strategies/typo.ts reports the same');
  }, 90_000);

  it('start says why a strategy module threw at import, without --verbose', async ({ expect }) => {
    write('throws.yaml', configFor('strategies/throws.ts').replace('params: { size: "0.001" }', 'params: {}'));
    const start = await perpbot(['start', '--config', 'throws.yaml']);
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(
      /^perpbot: strategy module "strategies\/throws\.ts" \(strategies\[0\]\.module\) failed to load: Error: throws\.ts needs a feed setting/,
    );
  }, 90_000);

  it('record runs without a risk: section (it never trades)', async ({ expect }) => {
    write(
      'record.yaml',
      `venue: { profile: sim }
strategies:
  - name: mine
    module: strategies/throws.ts
    markets: [1]
logging: { level: warn, pretty: false }
journal: { path: ${JSON.stringify(join(dir, 'record', 'journal.sqlite'))} }
`,
    );
    const record = await perpbot(['record', '--config', 'record.yaml', '--out', 'rec', '--hours', '0.0003']);
    expect(record.stderr).toBe('');
    expect(record.code).toBe(0);
    expect(readdirSync(join(dir, 'rec')).some((f) => f.endsWith('.jsonl.gz'))).toBe(true);
  }, 60_000);

  it('a config error names the default config where this project has it', async ({ expect }) => {
    write('typo-key.yaml', configFor('strategies/typo.ts').replace('max_open_orders', 'max_open_order'));
    const status = await perpbot(['status', '--config', 'typo-key.yaml']);
    expect(status.code).toBe(1);
    const named = /every key is listed, with comments, in (\S+\.yaml)/.exec(status.stderr)?.[1];
    expect(named, status.stderr).toBeDefined();
    expect(existsSync(isAbsolute(named!) ? named! : resolve(dir, named!)), `${named} from ${dir}`).toBe(true);
  }, 60_000);

  it("perpbot sim's default block is the embedded simulator's and the one docs/operations.md gives", async ({
    expect,
  }) => {
    const help = await perpbot(['sim', '--help']);
    const simDefault = Number(/--block-ms <n>.*\(default (\d+)\)/.exec(help.stdout + help.stderr)?.[1]);
    const embedded = (
      parse(readFileSync(join(REPO_ROOT, 'config', 'default.yaml'), 'utf8')) as { sim: { block_ms: number } }
    ).sim.block_ms;
    expect(simDefault).toBe(embedded);
    const docs = readFileSync(join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');
    const stated = [...docs.matchAll(/(?:default|simulator's) (\d+) ms blocks?/g)].map((m) => Number(m[1]));
    expect(stated.length).toBeGreaterThan(0);
    expect(new Set(stated)).toEqual(new Set([simDefault]));
  }, 60_000);

  describe("the README's first strategy", () => {
    let sim: RunningSim;
    beforeAll(async () => {
      sim = await startSim({ port: 0, blockMs: 100, registrationLagMs: 0 });
    });
    afterAll(async () => {
      await sim.close();
    });

    it('moves its bid with the mark, keeping one bid 10 bps under it', async ({ expect }) => {
      const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
      const snippet = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
      write('strategies/mine.ts', snippet.replace(/^ {3}/gm, '').replace("'../src/strategy/index.js'", STRATEGY_INDEX));
      write('mine.yaml', configFor('strategies/mine.ts', sim.restUrl));
      const who = await fundedAccount(sim);
      const bot = startPerpbotIn(['start', '--config', 'mine.yaml'], dir, {
        PERPBOT_ACCOUNT_KEY: who.accountKey,
        PERPBOT_SIGNER_KEY: who.signerKey,
      });
      running.push(bot);
      const bids = async () => (await who.rest.openOrders({ account: who.account, market_id: '1' })).orders;
      // Its start type-checks the strategy beside the other steps' checks.
      await until(async () => (await bids()).length === 1, 80_000).catch((error: unknown) => {
        throw new Error(`no bid: ${bot.output().slice(-2000)}`, { cause: error });
      });
      const first = (await bids())[0]!;
      const market = async () => (await who.rest.markets()).markets.find((m) => m.market_id === '1')!;
      const tick = Number((await market()).config.step_price);
      const higher = (Number((await market()).mark_price) * 1.02).toFixed(2);
      sim.controls.setMark(1, higher);
      // Until the one bid stands under the new mark (the oracle's own walk may move it a little first).
      await until(async () => {
        const now = await bids();
        return now.length === 1 && now[0]!.price_ticks * tick > Number(higher) * 0.995;
      }, 20_000).catch((error: unknown) => {
        throw new Error(
          `the bid did not move: ${JSON.stringify(first, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))} ${bot.output().slice(-2000)}`,
          { cause: error },
        );
      });
      const moved = (await bids())[0]!;
      expect(moved.side).toBe(first.side);
      // 10 bps under a mark near the one set (the oracle walks on from there).
      const price = moved.price_ticks * tick;
      expect(price).toBeGreaterThan(Number(higher) * 0.995);
      expect(price).toBeLessThan(Number(higher) * 1.002);
    }, 120_000);
  });

  it('the package ships the operations guide and deploy/, and every link in its guides leads to a shipped file', async ({
    expect,
  }) => {
    const pack = await new Promise<string>((done, fail) =>
      execFile('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT }, (error, stdout) =>
        error === null ? done(stdout) : fail(new Error('npm pack --dry-run failed', { cause: error })),
      ),
    );
    const files = new Set((JSON.parse(pack) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
    for (const path of [
      'docs/operations.md',
      'docs/strategy-guide.md',
      'deploy/prometheus/rules/perpbot.rules.yml',
      'deploy/docker/probe.mjs',
    ])
      expect(files, path).toContain(path);
    for (const guide of [...files].filter((f) => f.startsWith('docs/') && f.endsWith('.md')))
      for (const [, target] of readFileSync(join(REPO_ROOT, guide), 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        expect(files, `${guide} links ${target}`).toContain(join('docs', target!).replace(/\\/g, '/'));
      }
  }, 60_000);
});
