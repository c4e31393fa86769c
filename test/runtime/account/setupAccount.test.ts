import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, type Clock } from '../../../src/core/clock.js';
import { fastPrivateKeySigner } from '../../../src/protocol/nativeSigner.js';
import { SPEC_SELECTORS } from '../../../src/protocol/selectors.js';
import { parseNonceState } from '../../../src/engine/nonces/noncePair.js';
import { openJournal } from '../../../src/journal/openJournal.js';
import { faucetDeposit } from '../../../src/runtime/account/faucetDeposit.js';
import { registerSigner } from '../../../src/engine/account/registerSigner.js';
import { revokeSigner } from '../../../src/runtime/account/revokeSigner.js';
import { setupAccount, type SetupAccountOptions } from '../../../src/runtime/account/setupAccount.js';
import { SetupError } from '../../../src/runtime/account/setupError.js';
import { readVenueSigning } from '../../../src/venue/venueInfo.js';
import { startSim, type RunningSim } from '../../../src/sim/startSim.js';
import { createRestClient, type RestClient } from '../../../src/venue/rest/restClient.js';

let sim: RunningSim;
let rest: RestClient;
// One virtual timeline for the simulator and the setup flow: time moves only while setup sleeps,
// so the registration lag is ridden out by its retries, deterministically and without waiting.
const manual = new ManualClock(Date.UTC(2026, 0, 1));
const clock: Clock = { now: () => manual.now(), sleep: (ms) => manual.advance(ms) };
const LAG_MS = 400;

beforeAll(async () => {
  sim = await startSim({ port: 0, blockMs: 0, registrationLagMs: LAG_MS, clock: manual });
  rest = createRestClient({ baseUrl: sim.restUrl, timeoutMs: 5_000, rateLimit: false });
});

afterAll(async () => {
  await sim.close();
});

interface Line {
  readonly level: 'info' | 'warn';
  readonly object: Record<string, unknown>;
  readonly message: string;
}

function recordingLog(): { lines: Line[]; info: (o: object, m: string) => void; warn: (o: object, m: string) => void } {
  const lines: Line[] = [];
  return {
    lines,
    info: (object, message) => lines.push({ level: 'info', object: { ...object }, message }),
    warn: (object, message) => lines.push({ level: 'warn', object: { ...object }, message }),
  };
}

function freshKeys(): {
  account: ReturnType<typeof fastPrivateKeySigner>;
  signer: ReturnType<typeof fastPrivateKeySigner>;
} {
  return { account: fastPrivateKeySigner(generatePrivateKey()), signer: fastPrivateKeySigner(generatePrivateKey()) };
}

function options(
  keys: ReturnType<typeof freshKeys>,
  log = recordingLog(),
  extra: Partial<SetupAccountOptions> = {},
): SetupAccountOptions {
  return {
    rest,
    account: keys.account,
    signer: keys.signer,
    clock,
    log,
    faucet: true,
    registration: { attempts: 20, baseMs: 50, maxDelayMs: 200 },
    tradingProbe: { marketId: 1, selectors: SPEC_SELECTORS, deadlineSeconds: 60 },
    ...extra,
  };
}

describe('setupAccount against the simulator', () => {
  it('funds a fresh account by the faucet, rides out the registration lag and leaves the signer Active', async () => {
    const keys = freshKeys();
    const log = recordingLog();
    const started = manual.now();
    const result = await setupAccount(options(keys, log));

    expect(manual.now() - started).toBeGreaterThanOrEqual(LAG_MS);
    expect(result.faucet).toBe('deposited');
    expect(result.signerRegistration).toBe('registered');
    expect(result.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(result.signerStatus).toBe(1);
    const state = sim.controls.state();
    expect(state.isRegistered(keys.account.address)).toBe(true);
    expect(state.signerStatus(keys.account.address, keys.signer.address)).toBe(1);
    expect(result.registration.balance).toBe('1000');
    // No time passes during HTTP here, so the first signed attempt met the lag and setup waited it out.
    expect(log.lines.some((l) => l.message.startsWith('signed actions still refused as not registered'))).toBe(true);
    expect(log.lines.map((l) => l.message)).toContain('signer Active');
  });

  it('is safe to run again: sends nothing signed and reports the signer already Active', async () => {
    const keys = freshKeys();
    await setupAccount(options(keys));
    const nonceBefore = await rest.nonceState(keys.account.address);

    const again = await setupAccount(options(keys));

    expect(again.faucet).toBe('registered');
    expect(again.signerRegistration).toBe('already-active');
    expect(again.transactionHash).toBeUndefined();
    expect(again.signerStatus).toBe(1);
    expect(await rest.nonceState(keys.account.address)).toEqual(nonceBefore);
  });

  it('treats the venue answering an already Active signer with an empty transaction hash as done', async () => {
    const keys = freshKeys();
    await setupAccount(options(keys));
    const { context } = await readVenueSigning(rest);
    const repeat = await registerSigner({ rest, context, account: keys.account, signer: keys.signer, clock });
    expect(repeat.alreadyActive).toBe(true);
    expect(repeat.transactionHash).toBe('');
  });

  it('continues when the faucet says the wallet was already paid', async () => {
    const keys = freshKeys();
    expect(await faucetDeposit(rest, keys.account.address)).toBe('deposited');
    expect(await faucetDeposit(rest, keys.account.address)).toBe('already-used');
  });

  it('with jwt, logs in with the account key and grants the operator-hub allowance', async () => {
    const keys = freshKeys();
    const log = recordingLog();
    const result = await setupAccount(options(keys, log, { jwt: { budget: '250.5', validForSeconds: 3_600 } }));

    const { operatorHub } = await readVenueSigning(rest);
    expect(result.jwt?.approval.operator).toBe(operatorHub);
    expect(result.jwt?.accessTokenExpiresIn).toBeGreaterThan(0);
    const allowance = sim.controls.state().allowance(keys.account.address);
    expect(allowance?.budgetWei).toBe(250_500_000_000_000_000_000n);
    expect(allowance?.expiry).toBe(result.jwt?.approval.allowanceExpiry);
    // Neither the tokens nor any signature reach the log.
    expect(JSON.stringify(log.lines)).not.toMatch(/eyJ|access_token|refresh_token|signature/);
  });

  it('without a faucet, a never-funded account ends in a setup error that says to deposit first', async () => {
    const keys = freshKeys();
    const failure = setupAccount(
      options(keys, recordingLog(), { faucet: false, registration: { attempts: 2, baseMs: 10 } }),
    );
    await expect(failure).rejects.toBeInstanceOf(SetupError);
    await expect(failure).rejects.toMatchObject({
      step: 'registration',
      hints: expect.arrayContaining([expect.stringMatching(/deposit/)]),
    });
  });

  it('revoke-signer moves the signer to status 3, once; setup then refuses to register it again', async () => {
    const keys = freshKeys();
    await setupAccount(options(keys));
    const log = recordingLog();

    const revoked = await revokeSigner({ rest, account: keys.account, signer: keys.signer.address, clock, log });
    expect(revoked.status).toBe(3);
    expect(revoked.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sim.controls.state().signerStatus(keys.account.address, keys.signer.address)).toBe(3);

    const again = await revokeSigner({ rest, account: keys.account, signer: keys.signer.address, clock, log });
    expect(again.transactionHash).toBeUndefined();

    await expect(setupAccount(options(keys))).rejects.toMatchObject({ step: 'registerSigner' });
  });

  it("with the bot's journal, signs above the pairs it reserved and reserves its own there", async () => {
    const keys = freshKeys();
    const dir = await mkdtemp(join(tmpdir(), 'perpbot-setup-'));
    const journalPath = join(dir, 'journal.sqlite');
    try {
      const { anchor } = parseNonceState(await rest.nonceState(keys.account.address));
      // A crashed bot on this account (a re-run of setup after one) reserved (anchor + 1, 0..2).
      const crashed = openJournal(journalPath);
      for (const bit of [0, 1, 2])
        crashed.recordNonce(keys.account.address, 'crashed', { anchor: anchor + 1n, bit }, 'i');
      crashed.close();
      const log = recordingLog();

      await setupAccount(options(keys, log, { journalPath }));

      const sent = log.lines.find((l) => l.message === 'register-signer sent');
      expect(sent?.object).toMatchObject({ nonce_anchor: (anchor + 1n).toString(), nonce_bitmap_index: 3 });
      // Then the probe's cancel-alls (session key, the same account's nonces): the register moved the
      // venue's anchor to anchor + 1, so they sign anchor + 2 (one pair per attempt), reserved too.
      const journal = openJournal(journalPath);
      expect(journal.nonceHighWater(keys.account.address)?.anchor).toBe(anchor + 2n);
      journal.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to revoke a signer that was never registered', async () => {
    const keys = freshKeys();
    await faucetDeposit(rest, keys.account.address);
    await expect(
      revokeSigner({ rest, account: keys.account, signer: keys.signer.address, clock, log: recordingLog() }),
    ).rejects.toMatchObject({
      step: 'revokeSigner',
    });
  });
});
