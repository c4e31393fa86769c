import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { parseNonceState, type NoncePair } from '../../../src/engine/nonces/noncePair.js';
import { readVenueSigning } from '../../../src/venue/venueInfo.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import { cancelAllMarkets } from '../../../src/runtime/cli/cancelAllMarkets.js';
import { runCli } from '../../../src/runtime/cli/runCli.js';
import { openJournal } from '../../../src/journal/openJournal.js';
import { registerSigner } from '../../../src/engine/account/registerSigner.js';
import { startSim, type RunningSim } from '../../../src/sim/startSim.js';
import { createRestClient, type RestClient } from '../../../src/venue/rest/restClient.js';
import { memoryIo, placeLimit, testKeys, writeSimConfig, type TestKeys } from './cliTestSupport.js';

let sim: RunningSim;
let rest: RestClient;
let dir: string;

beforeAll(async () => {
  sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: 0 });
  rest = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 5_000, rateLimit: false });
  dir = await mkdtemp(join(tmpdir(), 'perpbot-cancel-all-'));
});

afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

/** A funded account with an Active session key. */
async function tradingAccount(): Promise<TestKeys> {
  const keys = testKeys();
  await rest.deposit({ account: keys.account.address, amount: '1000' });
  sim.controls.registerNow(keys.account.address);
  const { context } = await readVenueSigning(rest);
  await registerSigner({ rest, context, account: keys.account, signer: keys.signer, clock: systemClock });
  return keys;
}

async function venueNonces(keys: TestKeys): Promise<{ anchor: bigint; bitmap: bigint }> {
  return parseNonceState(await rest.nonceState(keys.account.address));
}

/**
 * A bot that crashed: it handed out (anchor + 1, 0..3), journaled each before signing, and none
 * of its permits had reached the venue yet; they can still land until their deadline.
 */
function crashedBot(journalPath: string, keys: TestKeys, anchor: bigint): NoncePair[] {
  const journal = openJournal(journalPath);
  const pairs = [0, 1, 2, 3].map((bit) => ({ anchor: anchor + 1n, bit }));
  for (const [i, pair] of pairs.entries())
    journal.recordNonce(keys.account.address, 'crashed-run', pair, `intent-${i}`);
  journal.close();
  return pairs;
}

function bits(...indexes: number[]): bigint {
  return indexes.reduce((sum, i) => sum | (1n << BigInt(i)), 0n);
}

describe('cancelAllMarkets after a crash', () => {
  it('signs above every pair the journal reserved, so a permit of the crashed run still lands; reserves its own', async () => {
    const keys = await tradingAccount();
    const journalPath = join(dir, 'direct.sqlite');
    const { anchor } = await venueNonces(keys);
    const crashed = crashedBot(journalPath, keys, anchor);

    const outcomes = await cancelAllMarkets({
      rest,
      account: keys.account.address,
      signer: keys.signer,
      markets: [1, 2],
      selectors: SPEC_SELECTORS,
      clock: systemClock,
      deadlineSeconds: 60,
      journalPath,
    });

    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    // The cancels consumed (anchor + 1, 4) and (anchor + 1, 5); none of the crashed run's pairs.
    expect(await venueNonces(keys)).toEqual({ anchor: anchor + 1n, bitmap: bits(4, 5) });
    // The crashed run's permit for (anchor + 1, 3) arrives late and still executes.
    const late = crashed[3]!;
    await expect(
      placeLimit(rest, keys, { marketId: 1, side: 0, priceTicks: 500_000, sizeSteps: 100, nonce: late }),
    ).resolves.toMatch(/^0x/);
    // The next bot resumes above the cancels' pairs: they are in the journal too.
    const journal = openJournal(journalPath);
    try {
      expect(journal.nonceHighWater(keys.account.address)).toEqual({ anchor: anchor + 1n, bit: 5 });
    } finally {
      journal.close();
    }
  });

  it('without a journal, only the venue state counts: it signs from anchor + 1, bit 0', async () => {
    const keys = await tradingAccount();
    const { anchor } = await venueNonces(keys);
    const outcomes = await cancelAllMarkets({
      rest,
      account: keys.account.address,
      signer: keys.signer,
      markets: [1],
      selectors: SPEC_SELECTORS,
      clock: systemClock,
      deadlineSeconds: 60,
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true]);
    expect(await venueNonces(keys)).toEqual({ anchor: anchor + 1n, bitmap: bits(0) });
  });
});

describe('perpbot cancel-all', () => {
  it("takes its nonces above the pairs reserved in the config's journal.path", async () => {
    const keys = await tradingAccount();
    const { path: configPath, dir: configDir } = await writeSimConfig(sim, [1]);
    const journalPath = join(configDir, 'data', 'journal.sqlite');
    await appendFile(configPath, `journal:\n  path: ${journalPath}\n`);
    const { anchor } = await venueNonces(keys);
    crashedBot(journalPath, keys, anchor);

    const m = memoryIo({ env: keys.env });
    expect(await runCli(['cancel-all', '--config', configPath], m.io)).toBe(0);

    expect(m.stdout()).toMatch(/^market 1: cancel-all done/);
    expect(await venueNonces(keys)).toEqual({ anchor: anchor + 1n, bitmap: bits(4) });
    await rm(configDir, { recursive: true, force: true });
  });
});
