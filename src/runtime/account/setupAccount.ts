import type { Address } from '../../core/address.js';
import { readVenueSigning } from '../../venue/venueInfo.js';
import { runOnce } from '../bot/startup/untilDeadline.js';
import { awaitRegistration, fundIfNeeded, probeTrading, type AccountFunding } from './accountRegistration.js';
import { grantJwtAccess, type JwtAccess } from './jwtAccess.js';
import { activateSigner } from './signerActivation.js';
import type { SetupAccountOptions, SetupRun } from './setupRun.js';
import type { RegistrationWait } from './waitForRegistration.js';
import { withJournalReservations } from './withJournalReservations.js';

export type { SetupAccountOptions } from './setupRun.js';

export interface SetupResult {
  readonly account: Address;
  readonly signer: Address;
  /** `registered`: the account was already registered, so the faucet was not asked. */
  readonly faucet: AccountFunding;
  readonly registration: RegistrationWait;
  readonly signerRegistration: 'registered' | 'already-active';
  readonly transactionHash: string | undefined;
  readonly signerStatus: number;
  readonly jwt?: JwtAccess;
}

/**
 * The venue setup flow, safe to run again: fund through the faucet (testnet) unless the account is
 * already registered, wait out the registration lag, register the signer unless it is already
 * Active, confirm Active, and on request log in and approve the operator hub. Each step logs what
 * it did; nothing logged or returned carries a key, signature or token. Every nonce it signs with
 * comes from the engine's nonces, reserved in the bot's journal when `journalPath` is given.
 */
export async function setupAccount(options: SetupAccountOptions): Promise<SetupResult> {
  const wait = options.wait ?? runOnce(options.signal);
  const signing = await wait('reading the signing domain and the system config', (s) =>
    readVenueSigning(options.rest, s),
  );
  const who = { account: options.account.address, signer: options.signer.address };
  return withJournalReservations(
    options.journalPath,
    who.account,
    { name: 'setup', clock: options.clock },
    (reservations) => runSetup({ options, wait, signing, reservations, who }),
  );
}

async function runSetup(run: SetupRun): Promise<SetupResult> {
  const { options } = run;
  const faucet = await fundIfNeeded(run);
  const registration = await awaitRegistration(run);
  const signer = await activateSigner(run);
  if (faucet === 'deposited' && options.tradingProbe !== undefined) await probeTrading(run, options.tradingProbe);
  const result: SetupResult = { ...run.who, faucet, registration, ...signer };
  if (options.jwt === undefined) return result;
  return { ...result, jwt: await grantJwtAccess(run, options.jwt) };
}
