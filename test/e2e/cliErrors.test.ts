import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnPerpbot, type CliRun } from './support/spawnPerpbot.js';

/**
 * The real CLI in a child process (compiled, as installed: support/compiledCli.ts): every
 * failure a user is likely to meet first is one line on stderr and a non-zero exit code.
 * The processes run in parallel.
 */
type Run = CliRun;
const perpbot = (args: readonly string[], env: Record<string, string> = {}): Promise<Run> => spawnPerpbot(args, env);

function stderrLines(run: Run): string[] {
  return run.stderr.split('\n').filter((line) => line !== '');
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

function configText(
  journalPath: string,
  restUrl: string,
  module = 'strategies/marketMaker.ts',
  params = '{ size: "0.001", spread_bps: 20, max_inventory: "0.01" }',
): string {
  return [
    'venue:',
    '  profile: sim',
    `  rest_url: ${restUrl}`,
    `  ws_url: ${restUrl.replace('http', 'ws')}/ws`,
    '  request_timeout_ms: 3000',
    // A venue that stays down is given up on after this (reads are retried until then).
    '  startup_deadline_ms: 1500',
    'risk:',
    '  max_order_notional: "1000"',
    '  max_position_per_market: "5000"',
    '  max_open_orders: 20',
    '  max_actions_per_second: 5',
    '  kill_switch: { max_loss: "500" }',
    'strategies:',
    '  - name: mm',
    `    module: ${module}`,
    '    markets: [1]',
    `    params: ${params}`,
    // Each run its own journal: the runs go in parallel, and a start holds its journal.
    `journal: { path: ${JSON.stringify(journalPath)} }`,
    'logging: { level: silent, pretty: false }',
    '',
  ].join('\n');
}

const keysEnv = { PERPBOT_ACCOUNT_KEY: generatePrivateKey(), PERPBOT_SIGNER_KEY: generatePrivateKey() };
const runs: Record<string, Run> = {};
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'perpbot-cli-e2e-'));
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}`;
  const files = {
    bad: join(dir, 'bad.yaml'),
    venue: join(dir, 'venue.yaml'),
    strategy: join(dir, 'strategy.yaml'),
    paramTypo: join(dir, 'param-typo.yaml'),
  };
  await writeFile(files.bad, 'venue:\n  profile: moon\nrisk: {}\nstrategies: []\n');
  await writeFile(files.venue, configText(join(dir, 'venue.sqlite'), url));
  await writeFile(files.strategy, configText(join(dir, 'strategy.sqlite'), url, 'strategies/doesNotExist.ts'));
  await writeFile(
    files.paramTypo,
    configText(
      join(dir, 'param-typo.sqlite'),
      url,
      'strategies/marketMaker.ts',
      '{ size: "0.001", spred_bps: 5, max_inventory: "0.01" }',
    ),
  );
  const [help, badConfig, missingKey, unreachable, unknownStrategy, unknownCommand, paramTypo] = await Promise.all([
    perpbot(['--help']),
    perpbot(['status', '--config', files.bad], keysEnv),
    perpbot(['status', '--config', files.venue]),
    perpbot(['status', '--config', files.venue], keysEnv),
    perpbot(['start', '--config', files.strategy], keysEnv),
    perpbot(['frobnicate']),
    perpbot(['start', '--config', files.paramTypo], keysEnv),
  ]);
  Object.assign(runs, { help, badConfig, missingKey, unreachable, unknownStrategy, unknownCommand, paramTypo });
}, 90_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('perpbot (spawned)', () => {
  it('--help prints the usage on stdout and exits 0', () => {
    const run = runs['help'];
    expect(run?.code).toBe(0);
    expect(run?.stdout).toMatch(/^Usage: perpbot <command> \[options\]/);
    expect(run?.stderr).toBe('');
  });

  it('a bad config file: one line naming the path, exit 1', () => {
    const run = runs['badConfig'];
    expect(run?.code).toBe(1);
    expect(stderrLines(run ?? { code: null, stdout: '', stderr: '' })).toEqual([
      expect.stringMatching(/^perpbot: config error at venue\.profile: .*bad\.yaml/),
    ]);
  });

  it('a missing key: one line saying which variable or file to set, exit 1', () => {
    const run = runs['missingKey'];
    expect(run?.code).toBe(1);
    expect(stderrLines(run ?? { code: null, stdout: '', stderr: '' })).toEqual([
      expect.stringMatching(/^perpbot: no key: PERPBOT_ACCOUNT_KEY is not set .*export PERPBOT_ACCOUNT_KEY=0x\.\.\./),
    ]);
  });

  it('an unreachable venue: retried until the start-up deadline, then one line with the step, the endpoint and what to check, exit 1', () => {
    const run = runs['unreachable'];
    expect(run?.code).toBe(1);
    expect(stderrLines(run ?? { code: null, stdout: '', stderr: '' })).toEqual([
      expect.stringMatching(
        /^perpbot: gave up reading the account status after 1\.\d s \(\d+ attempts?\): GET \/v1\/markets could not reach the venue \(ECONNREFUSED\).*venue\.rest_url.*venue\.startup_deadline_ms \(now 1500\)/,
      ),
    ]);
  });

  it('an unknown strategy: one line naming the module, before any venue is contacted, exit 1', () => {
    const run = runs['unknownStrategy'];
    expect(run?.code).toBe(1);
    expect(stderrLines(run ?? { code: null, stdout: '', stderr: '' })).toEqual([
      expect.stringMatching(
        /^perpbot: unknown strategy module "strategies\/doesNotExist\.ts" \(strategies\[0\]\.module\)/,
      ),
    ]);
  });

  it("a typo in a strategy's params: one line naming the key and the nearest one, before any venue is contacted, exit 1", () => {
    const run = runs['paramTypo'];
    expect(run?.code).toBe(1);
    expect(stderrLines(run ?? { code: null, stdout: '', stderr: '' })).toEqual([
      expect.stringMatching(
        /^perpbot: config error at strategies\[0\]\.params\.spred_bps: unknown key "spred_bps" \(did you mean "spread_bps"\?\)/,
      ),
    ]);
  });

  it('an unknown command: one line listing the commands, exit 2', () => {
    const run = runs['unknownCommand'];
    expect(run?.code).toBe(2);
    expect(stderrLines(run ?? { code: null, stdout: '', stderr: '' })).toEqual([
      expect.stringMatching(
        /^perpbot: unknown command "frobnicate" \(commands: start, setup, probe, record, replay, sweep, status, kill-switch, markets/,
      ),
    ]);
  });

  it('no stack trace in any of them', () => {
    for (const run of Object.values(runs)) expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
