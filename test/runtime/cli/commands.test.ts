import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortId } from '../../../src/core/shortId.js';
import { NonceAllocator } from '../../../src/engine/nonces/nonceAllocator.js';
import { parseNonceState } from '../../../src/engine/nonces/noncePair.js';
import { runCli } from '../../../src/runtime/cli/runCli.js';
import { startSim, type RunningSim } from '../../../src/sim/startSim.js';
import { createRestClient, type RestClient } from '../../../src/venue/rest/restClient.js';
import { memoryIo, placeLimit, testKeys, writeSimConfig, type TestKeys } from './cliTestSupport.js';

let sim: RunningSim;
let rest: RestClient;
let configPath: string;
let configDir: string;

beforeAll(async () => {
  sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
  rest = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 5_000, rateLimit: false });
  ({ path: configPath, dir: configDir } = await writeSimConfig(sim));
});

afterAll(async () => {
  await sim.close();
  await rm(configDir, { recursive: true, force: true });
});

async function cli(args: string[], keys?: TestKeys): Promise<{ code: number; stdout: string; stderr: string }> {
  // The config's relative journal.path lands in the test's own directory, never the repository's.
  const m = memoryIo({ env: keys?.env ?? {}, cwd: configDir });
  const code = await runCli(args, m.io);
  return { code, stdout: m.stdout(), stderr: m.stderr() };
}

async function setUp(keys: TestKeys): Promise<void> {
  const result = await cli(['setup', '--config', configPath], keys);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

async function restingOrders(
  keys: TestKeys,
  markets: readonly { marketId: number; priceTicks: number; side?: 0 | 1; postOnly?: boolean }[],
): Promise<string[]> {
  const allocator = new NonceAllocator(
    keys.account.address,
    parseNonceState(await rest.nonceState(keys.account.address)),
  );
  const ids: string[] = [];
  for (const m of markets) {
    const nonce = await allocator.allocate();
    ids.push(
      await placeLimit(rest, keys, {
        marketId: m.marketId,
        side: m.side ?? 0,
        priceTicks: m.priceTicks,
        sizeSteps: 100,
        postOnly: m.postOnly ?? true,
        nonce,
      }),
    );
    allocator.report(nonce, 'landed');
  }
  return ids;
}

async function openCount(keys: TestKeys, marketId: number): Promise<number> {
  return (await rest.openOrders({ account: keys.account.address, market_id: String(marketId) })).orders.length;
}

describe('perpbot setup', () => {
  it('funds the account, registers the signer and says so; a second run changes nothing', async () => {
    const keys = testKeys();
    const first = await cli(['setup', '--config', configPath], keys);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`account  ${keys.account.address}  faucet paid 1000 USDC`);
    expect(first.stdout).toMatch(
      new RegExp(`signer   ${keys.signer.address}  Active \\(registered, tx 0x[0-9a-f]{64}\\)`),
    );
    expect(sim.controls.state().signerStatus(keys.account.address, keys.signer.address)).toBe(1);

    const second = await cli(['setup', '--config', configPath], keys);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('already registered (faucet not needed)');
    expect(second.stdout).toContain('Active (already registered)');
  });

  it('--jwt grants the operator-hub allowance with the given budget and lifetime', async () => {
    const keys = testKeys();
    const result = await cli(
      ['setup', '--config', configPath, '--jwt', '--budget', '12.5', '--allowance-days', '2'],
      keys,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(
      /jwt {6}login works \(token not stored\); operator hub 0x[0-9a-fA-F]{40} approved for 12\.5 USD/,
    );
    const allowance = sim.controls.state().allowance(keys.account.address);
    expect(allowance?.budgetWei).toBe(12_500_000_000_000_000_000n);
    expect(allowance?.expiry).toBeGreaterThan(Math.floor(Date.now() / 1000) + 2 * 86_400 - 60);
  });

  it('refuses --budget without --jwt, as a usage error', async () => {
    const result = await cli(['setup', '--config', configPath, '--budget', '5'], testKeys());
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('perpbot status', () => {
  it('shows balance and open orders with exact sizes and prices, as JSON and as a table', async () => {
    const keys = testKeys();
    await setUp(keys);
    const [btc, eth] = await restingOrders(keys, [
      { marketId: 1, priceTicks: 600_000 },
      { marketId: 2, priceTicks: 300_000 },
    ]);

    const json = await cli(['status', '--config', configPath, '--json'], keys);
    expect(json.code).toBe(0);
    const status = JSON.parse(json.stdout) as {
      account: string;
      balance: string;
      registered: boolean;
      markets: {
        marketId: number;
        position: unknown;
        openOrders: { orderId: string; side: string; size: string; price: string }[];
      }[];
    };
    expect(status.account).toBe(keys.account.address);
    expect(status.registered).toBe(true);
    expect(status.balance).toBe('1000');
    expect(status.markets.map((m) => m.marketId)).toEqual([1, 2]);
    expect(status.markets[0]?.openOrders).toEqual([
      expect.objectContaining({ orderId: btc, side: 'buy', size: '0.001', price: '60000' }),
    ]);
    expect(status.markets[1]?.openOrders).toEqual([
      expect.objectContaining({ orderId: eth, side: 'buy', size: '0.01', price: '3000' }),
    ]);
    expect(status.markets[0]?.position).toBeNull();

    const table = await cli(['status', '--config', configPath, '--market', '1'], keys);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('balance  1000.000000 USDC (cross margin)');
    expect(table.stdout).toContain('positions: none');
    // The table shows the id by the digits that tell orders apart (core/shortId); --json has it whole.
    expect(table.stdout).toMatch(
      new RegExp(`1 BTC/USDC\\s+${shortId(btc!)}\\s+buy\\s+limit\\s+0\\.001\\s+60000\\.0\\s+GTC\\s+post-only`),
    );
    expect(table.stdout).not.toContain(eth ?? 'no eth order');
  });

  it('shows a position once an order has filled', async () => {
    const maker = testKeys();
    const taker = testKeys();
    await setUp(maker);
    await setUp(taker);
    await restingOrders(maker, [{ marketId: 1, priceTicks: 700_000, side: 1 }]);
    await restingOrders(taker, [{ marketId: 1, priceTicks: 700_000, side: 0, postOnly: false }]);

    const table = await cli(['status', '--config', configPath, '--market', '1'], taker);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(
      /positions:\nmarket\s+side\s+size\s+avgEntryPrice\s+markPrice\s+unrealisedPnl\s+leverage\s+liq\. price\n1 BTC\/USDC\s+BUY\s+0\.001\s+70000\.0\s+\d+\.\d\s+-?\d+\.\d{6}\s/,
    );
    const json = JSON.parse(
      (await cli(['status', '--config', configPath, '--market', '1', '--json'], maker)).stdout,
    ) as { markets: { position: { side: string; size: string } | null }[] };
    expect(json.markets[0]?.position).toEqual(expect.objectContaining({ side: 'SELL', size: '0.001' }));
  });

  it('shows an account the venue has never seen as not registered, without any key', async () => {
    const result = await cli(['status', '--config', configPath, '--account', testKeys().account.address]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('not registered');
    expect(result.stdout).toContain('open orders: none');
  });
});

describe('perpbot cancel-all', () => {
  it('cancels the orders of every configured market, or only the one given', async () => {
    const keys = testKeys();
    await setUp(keys);
    await restingOrders(keys, [
      { marketId: 1, priceTicks: 600_000 },
      { marketId: 1, priceTicks: 600_100 },
      { marketId: 2, priceTicks: 300_000 },
    ]);

    const onlyTwo = await cli(['cancel-all', '--config', configPath, '--market', '2'], keys);
    expect(onlyTwo.code).toBe(0);
    expect(onlyTwo.stdout).toMatch(/^market 2: cancel-all done \(tx 0x[0-9a-f]{64}\)\n$/);
    expect(await openCount(keys, 1)).toBe(2);
    expect(await openCount(keys, 2)).toBe(0);

    const all = await cli(['cancel-all', '--config', configPath], keys);
    expect(all.code).toBe(0);
    expect(all.stdout.trim().split('\n')).toHaveLength(2);
    expect(await openCount(keys, 1)).toBe(0);
  });

  it('fails in one line when the signer is not registered, after trying every market', async () => {
    const keys = testKeys();
    await rest.deposit({ account: keys.account.address, amount: '1000' });
    const result = await cli(['cancel-all', '--config', configPath], keys);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('market 1: cancel-all FAILED\nmarket 2: cancel-all FAILED\n');
    expect(result.stderr).toMatch(/^perpbot: cancel-all failed in markets 1, 2: .*SignerNotAuthorized.*\n$/);
  });
});

describe('perpbot revoke-signer', () => {
  it('revokes the configured signer and confirms status 3', async () => {
    const keys = testKeys();
    await setUp(keys);
    const result = await cli(['revoke-signer', '--config', configPath], keys);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`signer ${keys.signer.address} revoked \\(status 3, tx 0x[0-9a-f]{64}\\)`),
    );
    expect(sim.controls.state().signerStatus(keys.account.address, keys.signer.address)).toBe(3);
  });
});

describe('perpbot keys new', () => {
  it('writes two 0600 key files, prints only addresses and paths, and never overwrites', async () => {
    const dir = join(configDir, 'keys');
    const result = await cli(['keys', 'new', '--dir', dir]);
    expect(result.code).toBe(0);
    const accountFile = join(dir, 'account.key');
    const signerFile = join(dir, 'signer.key');
    const accountKey = (await readFile(accountFile, 'utf8')).trim();
    expect(result.stdout).toMatch(
      new RegExp(`^account  0x[0-9a-fA-F]{40}  ${accountFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`),
    );
    expect(result.stdout).toContain(signerFile);
    expect(result.stdout).not.toContain(accountKey.slice(2));
    expect((await stat(accountFile)).mode & 0o777).toBe(0o600);
    expect((await stat(signerFile)).mode & 0o777).toBe(0o600);

    const again = await cli(['keys', 'new', '--dir', dir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^perpbot: refusing to overwrite existing key file .*\n$/);
    expect(await readFile(accountFile, 'utf8')).toContain(accountKey);
  });
});

describe('perpbot reconcile --account', () => {
  it('compares the journal with the venue for an address, with no key at all', async () => {
    const keys = testKeys();
    await setUp(keys);
    // The journal (the config's default path) lands in the config's directory, not the repository.
    const m = memoryIo({ env: {}, cwd: configDir });
    const code = await runCli(['reconcile', '--config', configPath, '--account', keys.account.address], m.io);
    expect(m.stderr()).toBe('');
    expect(code).toBe(0);
    expect(m.stdout()).toContain(
      `account  ${keys.account.address}\njournal  ${join(configDir, 'data', 'journal.sqlite')}\n`,
    );
    expect(m.stdout()).toContain('no differences');
    const bad = memoryIo({ env: {}, cwd: configDir });
    expect(await runCli(['reconcile', '--config', configPath, '--account', 'nope'], bad.io)).toBe(2);
    expect(bad.stderr()).toBe('perpbot: --account: invalid value "nope"; expected a 0x address\n');
  });
});
