import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { npmScript } from './support/npmScript.js';
import { generatePrivateKey } from 'viem/accounts';
import { createRestClient, type RestClient } from '../../src/venue/rest/restClient.js';
import { fastPrivateKeySigner } from '../../src/protocol/nativeSigner.js';
import { RISE_SELECTORS } from '../../src/protocol/selectors.js';
import { buildSignedRequest } from '../../src/engine/signing/signedRequest.js';
import { signTypedStruct } from '../../src/protocol/typedSignatures.js';
import { signingContextOf } from './support/simAccount.js';

/**
 * The testnet flow of the issue, against a simulator started as a separate process (`npm run sim`
 * with the real venue's selector strings): keys new, setup, start with config/testnet.yaml pointed
 * at it by environment variables, a trade, status, cancel-all, shutdown. The CLI is the compiled
 * one every e2e file spawns (support/compiledCli.ts); cliStart runs the checkout's own (tsx) path.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const PERPBOT = inject('perpbotMain');
const JOURNAL = join(ROOT, 'data', 'testnet-journal.sqlite');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function waitForLine(child: ChildProcess, pattern: RegExp, ms: number): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let buffer = '';
    const timer = setTimeout(
      () => reject(new Error(`no line matching ${pattern} within ${ms} ms; got:\n${buffer.slice(-2000)}`)),
      ms,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) {
        clearTimeout(timer);
        resolvePromise(line);
      }
    });
  });
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [PERPBOT, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((r) => child.on('exit', (code) => r(code)));
}

describe('testnet flow against a separate simulator process', () => {
  let sim: ChildProcess;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  let restUrl: string;
  const journalExisted = existsSync(JOURNAL);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpbot-testnet-'));
    const { command, args } = npmScript('sim');
    sim = spawn(
      command,
      [...args, '--port', '0', '--selectors', 'rise', '--registration-lag-ms', '300', '--block-ms', '50'],
      { cwd: ROOT },
    );
    const first = await waitForLine(sim, /^perpbot-sim REST /, 20_000);
    const [, rest, ws] = /REST (\S+) WS (\S+)/.exec(first) ?? [];
    restUrl = rest!;
    env = { PERPBOT_REST_URL: rest!, PERPBOT_WS_URL: ws!, PERPBOT_KEY_DIR: join(dir, 'keys') };
  }, 30_000);

  afterAll(async () => {
    sim.kill('SIGINT');
    await exited(sim);
    rmSync(dir, { recursive: true, force: true });
    if (!journalExisted) for (const suffix of ['', '-wal', '-shm']) rmSync(`${JOURNAL}${suffix}`, { force: true });
  });

  it('keys new, setup, start, a trade, status, cancel-all, shutdown', async () => {
    const keys = await cli(['keys', 'new', '--dir', join(dir, 'keys')], env);
    expect(keys.code, keys.stderr).toBe(0);
    const account = /0x[0-9a-fA-F]{40}/.exec(keys.stdout)?.[0];
    expect(account).toBeDefined();
    expect(keys.stdout).not.toMatch(/0x[0-9a-fA-F]{64}/); // only addresses are printed

    const setup = await cli(['setup', '--config', 'config/testnet.yaml'], env);
    expect(setup.code, setup.stderr).toBe(0);

    const bot = spawn(process.execPath, [PERPBOT, 'start', '--config', 'config/testnet.yaml'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    const placed = await waitForLine(bot, /"msg":"order placed"/, 30_000);
    expect(placed).toContain('"strategy":"market-maker"');

    // A second account takes the bot's ask: a trade the bot sees as a fill. The market maker requotes
    // on every mark move, so the ask read may be gone by the time the taker arrives: then take the next.
    const rest = createRestClient({ baseUrl: restUrl, timeoutMs: 10_000 });
    const fill = await takeAnAsk(rest, account!, bot);
    expect(fill).toContain('"liquidity":"MAKER"');

    const status = await cli(['status', '--config', 'config/testnet.yaml', '--json'], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('"balance"');

    // Beside the running bot cancel-all is refused (its nonces are the bot's), naming the bot's pid.
    const besideBot = await cli(['cancel-all', '--config', 'config/testnet.yaml'], env);
    expect(besideBot.code).toBe(1);
    expect(besideBot.stderr).toMatch(/the journal \S+ is in use by perpbot pid \d+ \(start/);

    bot.kill('SIGINT');
    expect(await exited(bot)).toBe(0);
    expect((await rest.openOrders({ account: account!, market_id: '1' })).orders).toHaveLength(0);
    const cancelAll = await cli(['cancel-all', '--config', 'config/testnet.yaml'], env);
    expect(cancelAll.code, cancelAll.stderr).toBe(0);
  }, 120_000);
});

/**
 * Takes the bot's current ask until the bot logs a fill (at most 5 takes); returns the fill's line.
 * Between requotes the bot may briefly have no ask (under load, for seconds): it is looked for up
 * to 40 times, half a second apart.
 */
async function takeAnAsk(rest: RestClient, account: string, bot: ChildProcess): Promise<string> {
  const take = await fundedTaker(rest);
  let lastError: unknown;
  for (let attempt = 0, looks = 0; attempt < 5 && looks < 40; looks++) {
    const ask = (await rest.openOrders({ account, market_id: '1' })).orders.find((o) => o.side === 1);
    if (ask === undefined) {
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    attempt++;
    const filled = waitForLine(bot, /"msg":"fill"/, 4_000);
    try {
      await take(ask.price_ticks);
      return await filled;
    } catch (error) {
      lastError = error;
      await filled.catch(() => undefined);
    }
  }
  throw lastError instanceof Error ? lastError : new Error('the bot never had an ask to take');
}

/** A funded taker with its own session key: each call buys up to 0.1 through the given price with an IOC limit. */
async function fundedTaker(rest: RestClient): Promise<(priceTicks: number) => Promise<void>> {
  const accountSigner = fastPrivateKeySigner(generatePrivateKey());
  const signer = fastPrivateKeySigner(generatePrivateKey());
  const account = accountSigner.address;
  const context = await signingContextOf(rest);
  await rest.deposit({ account, amount: '10000' });
  await new Promise((r) => setTimeout(r, 500)); // the simulator's registration lag is 300 ms here
  const anchor = BigInt((await rest.nonceState(account)).nonce_anchor) + 1n;
  const expiration = Math.floor(Date.now() / 1000) + 3600;
  await rest.registerSigner({
    account,
    signer: signer.address,
    message: 'taker',
    expiration: String(expiration),
    nonce_anchor: anchor.toString(),
    nonce_bitmap_index: 0,
    account_signature: await signTypedStruct(context, accountSigner, 'RegisterSigner', {
      account,
      signer: signer.address,
      message: 'taker',
      expiration,
      nonceAnchor: anchor,
      nonceBitmap: 0,
    }),
    signer_signature: await signTypedStruct(context, signer, 'VerifySigner', {
      account,
      nonceAnchor: anchor,
      nonceBitmap: 0,
    }),
  });
  let bit = 0;
  return async (priceTicks) => {
    const request = await buildSignedRequest(
      {
        action: 'placeOrder',
        size: '0.1',
        price: (priceTicks / 10).toFixed(1),
        order: {
          market_id: 1,
          // The simulator's synthetic makers quote a tick from the mark, inside the bot's 30 bps: a
          // limit IOC at the bot's ask for more than their depth takes theirs and then the bot's.
          size_steps: 10_000,
          price_ticks: priceTicks,
          side: 0,
          post_only: false,
          reduce_only: false,
          stp_mode: 0,
          order_type: 0,
          time_in_force: 3,
        },
      },
      {
        mode: 'permit',
        context,
        signer,
        account,
        nonce: { anchor: anchor + 1n, bit: bit++ },
        deadline: Math.floor(Date.now() / 1000) + 60,
      },
      RISE_SELECTORS,
    );
    await rest.placeOrder(request.body);
  };
}
