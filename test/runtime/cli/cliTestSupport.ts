import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { systemClock, type Clock } from '../../../src/core/clock.js';
import { buildSignedRequest } from '../../../src/engine/signing/signedRequest.js';
import type { SyncDigestSigner } from '../../../src/protocol/digestSigner.js';
import { fastPrivateKeySigner } from '../../../src/protocol/nativeSigner.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import type { CliIo } from '../../../src/runtime/cli/cliIo.js';
import { readVenueSigning } from '../../../src/venue/venueInfo.js';
import type { RunningSim } from '../../../src/sim/startSim.js';
import type { RestClient } from '../../../src/venue/rest/restClient.js';

/** A CliIo over strings: what a command printed, and a shutdown switch. */
export function memoryIo(options: { env?: Record<string, string | undefined>; cwd?: string; clock?: Clock } = {}): {
  io: CliIo;
  stdout: () => string;
  stderr: () => string;
  abort: () => void;
} {
  let out = '';
  let err = '';
  const controller = new AbortController();
  return {
    io: {
      stdout: { write: (text: string) => void (out += text) },
      stderr: { write: (text: string) => void (err += text) },
      env: options.env ?? {},
      cwd: options.cwd ?? process.cwd(),
      clock: options.clock ?? systemClock,
      shutdown: controller.signal,
    },
    stdout: () => out,
    stderr: () => err,
    abort: () => controller.abort(new Error('test shutdown')),
  };
}

export interface TestKeys {
  readonly accountKey: `0x${string}`;
  readonly signerKey: `0x${string}`;
  readonly account: SyncDigestSigner;
  readonly signer: SyncDigestSigner;
  /** PERPBOT_ACCOUNT_KEY / PERPBOT_SIGNER_KEY for a CliIo. */
  readonly env: Record<string, string>;
}

export function testKeys(): TestKeys {
  const accountKey = generatePrivateKey();
  const signerKey = generatePrivateKey();
  return {
    accountKey,
    signerKey,
    account: fastPrivateKeySigner(accountKey),
    signer: fastPrivateKeySigner(signerKey),
    env: { PERPBOT_ACCOUNT_KEY: accountKey, PERPBOT_SIGNER_KEY: signerKey },
  };
}

/** A config file for a simulator started elsewhere (profile sim with both URLs). */
export async function writeSimConfig(
  sim: RunningSim,
  markets: readonly number[] = [1, 2],
): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'perpbot-cli-'));
  const path = join(dir, 'perpbot.yaml');
  await writeFile(
    path,
    [
      'venue:',
      '  profile: sim',
      `  rest_url: ${sim.restUrl}`,
      `  ws_url: ${sim.wsUrl}`,
      'engine:',
      '  registration_retry: { attempts: 30, base_ms: 20 }',
      'risk:',
      '  max_order_notional: "1000"',
      '  max_position_per_market: "5000"',
      '  max_open_orders: 20',
      '  max_actions_per_second: 5',
      '  kill_switch: { max_loss: "500" }',
      'strategies:',
      '  - name: mm',
      '    module: strategies/marketMaker.ts',
      `    markets: [${markets.join(', ')}]`,
      '    params: { size: "0.001", spread_bps: 20, max_inventory: "0.01" }',
      'logging: { level: silent, pretty: false }',
      '',
    ].join('\n'),
  );
  return { dir, path };
}

/** Places a GTC limit order (post-only unless told otherwise) with a permit signed by the session key. */
export async function placeLimit(
  rest: RestClient,
  keys: TestKeys,
  order: {
    marketId: number;
    side: 0 | 1;
    priceTicks: number;
    sizeSteps: number;
    postOnly?: boolean;
    nonce: { anchor: bigint; bit: number };
  },
): Promise<string> {
  const { context } = await readVenueSigning(rest);
  const request = await buildSignedRequest(
    {
      action: 'placeOrder',
      order: {
        market_id: order.marketId,
        size_steps: order.sizeSteps,
        price_ticks: order.priceTicks,
        side: order.side,
        post_only: order.postOnly ?? true,
        reduce_only: false,
        stp_mode: 0,
        order_type: 1,
        time_in_force: 0,
      },
      // Only the steps and ticks are signed and sent; these are for logs.
      size: String(order.sizeSteps),
      price: String(order.priceTicks),
    },
    {
      mode: 'permit',
      context,
      signer: keys.signer,
      account: keys.account.address,
      nonce: order.nonce,
      deadline: Math.floor(Date.now() / 1000) + 60,
    },
    SPEC_SELECTORS,
  );
  const placed = await rest.placeOrder(request.body);
  return placed.order_id;
}
