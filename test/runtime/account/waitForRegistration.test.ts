import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { isFaucetAlreadyUsed } from '../../../src/runtime/account/faucetDeposit.js';
import { SetupError } from '../../../src/runtime/account/setupError.js';
import { confirmSignerStatus } from '../../../src/runtime/account/signerStatus.js';
import { isNotRegisteredYet, waitForRegistration } from '../../../src/runtime/account/waitForRegistration.js';
import { VenueError } from '../../../src/venue/venueError.js';
import { VenueTransportError } from '../../../src/venue/venueTransportError.js';

const ACCOUNT = '0x00000000000000000000000000000000000000aA' as const;
const SIGNER = '0x00000000000000000000000000000000000000bB' as const;

function venueError(httpStatus: number, code: string, message: string): VenueError {
  return new VenueError({
    httpStatus,
    rawBody: JSON.stringify({ error: { code, message: `${code}: ${message}` } }),
    endpoint: 'GET /v1/account/cross-margin-balance',
  });
}

const noState = (): VenueError => venueError(500, 'Internal', `account ${ACCOUNT} has no on-chain state`);

/** Runs `work` while moving the manual clock forward until it settles. */
async function settle<T>(clock: ManualClock, work: Promise<T>): Promise<T> {
  let done = false;
  const watched = work.finally(() => (done = true));
  watched.catch(() => undefined);
  while (!done) await clock.advance(100);
  return watched;
}

describe('waitForRegistration', () => {
  it('polls the balance with doubling pauses until the venue knows the account', async () => {
    const clock = new ManualClock();
    const answers: (VenueError | string)[] = [
      noState(),
      venueError(400, 'FailedPrecondition', `account ${ACCOUNT} is not registered (userId 0)`),
      noState(),
      '1000',
    ];
    const reads: number[] = [];
    const rest = {
      crossMarginBalance: async () => {
        reads.push(clock.now());
        const next = answers.shift();
        if (next instanceof VenueError) throw next;
        return { balance: next ?? 'unexpected' };
      },
    };
    const waits: number[] = [];
    const result = await settle(
      clock,
      waitForRegistration({
        rest,
        account: ACCOUNT,
        clock,
        polling: { attempts: 10, baseMs: 500 },
        onWaiting: ({ delayMs }) => waits.push(delayMs),
      }),
    );
    expect(result).toEqual({ polls: 4, waitedMs: 3_500, balance: '1000' });
    expect(waits).toEqual([500, 1_000, 2_000]);
    expect(reads.map((t) => t - (reads[0] ?? 0))).toEqual([0, 500, 1_500, 3_500]);
  });

  it('gives up after the configured reads with a setup error that says to deposit', async () => {
    const clock = new ManualClock();
    const rest = { crossMarginBalance: async () => Promise.reject(noState()) };
    const failure = settle(
      clock,
      waitForRegistration({ rest, account: ACCOUNT, clock, polling: { attempts: 3, baseMs: 200, maxDelayMs: 300 } }),
    );
    await expect(failure).rejects.toBeInstanceOf(SetupError);
    await expect(failure).rejects.toMatchObject({
      step: 'registration',
      message: expect.stringContaining('after 3 balance reads over 500 ms'),
    });
  });

  it('does not wait on an unreachable venue or a refused request', async () => {
    const clock = new ManualClock();
    let reads = 0;
    const unreachable = new VenueTransportError({
      kind: 'ConnectionFailed',
      endpoint: 'GET /v1/account/cross-margin-balance',
    });
    const rest = {
      crossMarginBalance: async () => {
        reads += 1;
        throw unreachable;
      },
    };
    await expect(
      waitForRegistration({ rest, account: ACCOUNT, clock, polling: { attempts: 5, baseMs: 100 } }),
    ).rejects.toBe(unreachable);
    expect(reads).toBe(1);
    expect(isNotRegisteredYet(venueError(400, 'InvalidArgument', 'invalid request query: account'))).toBe(false);
  });
});

describe('confirmSignerStatus', () => {
  it('reads again until the status the setup action produced shows', async () => {
    const clock = new ManualClock();
    const seen = [0, 0, 1];
    const rest = { sessionKeyStatus: async () => ({ status: seen.shift() ?? 1, status_description: 'x' }) };
    const status = await settle(
      clock,
      confirmSignerStatus({ rest, account: ACCOUNT, signer: SIGNER, expected: 1, clock, delayMs: 300 }),
    );
    expect(status.status).toBe(1);
    expect(seen).toEqual([]);
  });

  it('reports the status it last saw when it never changes', async () => {
    const clock = new ManualClock();
    const rest = { sessionKeyStatus: async () => ({ status: 1, status_description: 'Active' }) };
    const failure = settle(
      clock,
      confirmSignerStatus({ rest, account: ACCOUNT, signer: SIGNER, expected: 3, clock, attempts: 3, delayMs: 100 }),
    );
    await expect(failure).rejects.toMatchObject({
      step: 'confirmStatus',
      message: expect.stringContaining('has status 1 (Active), expected 3'),
    });
  });
});

describe('isFaucetAlreadyUsed', () => {
  it.each([
    ['FailedPrecondition', 'faucet already used by 0xabc: it pays 1000 USDC once per wallet', true],
    ['FailedPrecondition', 'wallet has already claimed the faucet', true],
    ['InvalidArgument', 'faucet can be used only once', true],
    ['InvalidArgument', 'invalid request body: amount', false],
    ['FailedPrecondition', 'bot wallets cannot use the faucet', false],
  ])('%s: %s -> %s', (code, message, expected) => {
    expect(isFaucetAlreadyUsed(venueError(400, code, message))).toBe(expected);
  });

  it('never for a 5xx, which is no definite answer', () => {
    expect(isFaucetAlreadyUsed(venueError(503, 'Unavailable', 'faucet already used'))).toBe(false);
  });
});
