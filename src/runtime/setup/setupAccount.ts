import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import { approveOperator, type OperatorApproval } from './approveOperator.js';
import { confirmTradable, type TradingProbe } from './confirmTradable.js';
import { faucetDeposit, type FaucetOutcome } from './faucetDeposit.js';
import { loginAccount } from './loginAccount.js';
import { registerSigner, ONE_YEAR_SECONDS } from './registerSigner.js';
import { SetupError } from './setupError.js';
import type { SetupLogger } from './setupLogger.js';
import { readSigningInfo, type SetupRest } from './readSigningInfo.js';
import { confirmSignerStatus, readSignerStatus, SESSION_KEY_ACTIVE, SESSION_KEY_REVOKED } from './signerStatus.js';
import {
  isNotRegisteredYet,
  waitForRegistration,
  type RegistrationPolling,
  type RegistrationWait,
} from './waitForRegistration.js';
import { runOnce, type VenueWait } from '../startup/untilDeadline.js';

type KeySigner = SignerLike & { readonly address: Address };

export interface JwtSetupOptions {
  /** Operator-hub budget in USD (decimal string); fills spend it. */
  readonly budget: string;
  readonly validForSeconds: number;
}

export interface SetupAccountOptions {
  readonly rest: SetupRest;
  /** The account (wallet) key: signs RegisterSigner, Login and PermitSingle. */
  readonly account: KeySigner;
  /** The session key to register: signs VerifySigner here, every permit later. */
  readonly signer: KeySigner;
  readonly clock: Clock;
  readonly log: SetupLogger;
  /** Testnet (and the simulator): fund and register the account through the faucet. */
  readonly faucet: boolean;
  readonly registration?: RegistrationPolling;
  /** RegisterSigner expiration from now; one year by default. */
  readonly signerValidForSeconds?: number;
  /**
   * After this run's own faucet deposit, prove the lag is over with a no-op signed cancel-all on
   * this market (the balance read alone may answer before the deposit is indexed for trading).
   */
  readonly tradingProbe?: TradingProbe;
  /** Also log in and grant the operator-hub allowance. */
  readonly jwt?: JwtSetupOptions;
  readonly signal?: AbortSignal;
  /**
   * Runs each read-only step again while it fails transiently (the CLI: until
   * `venue.startup_deadline_ms`); default: once. Signed POSTs are never run again by it.
   */
  readonly wait?: VenueWait;
}

export interface SetupResult {
  readonly account: Address;
  readonly signer: Address;
  /** `registered`: the account was already registered, so the faucet was not asked. */
  readonly faucet: FaucetOutcome | 'registered' | 'not-used';
  readonly registration: RegistrationWait;
  readonly signerRegistration: 'registered' | 'already-active';
  readonly transactionHash: string | undefined;
  readonly signerStatus: number;
  readonly jwt?: { readonly accessTokenExpiresIn: number; readonly approval: OperatorApproval };
}

export const DEFAULT_REGISTRATION_POLLING: RegistrationPolling = { attempts: 10, baseMs: 500 };

/**
 * The venue setup flow, safe to run again: fund through the faucet (testnet) unless the account is
 * already registered, wait out the registration lag, register the signer unless it is already
 * Active, confirm Active, and on request log in and approve the operator hub. Each step logs what
 * it did; nothing logged or returned carries a key, signature or token.
 */
export async function setupAccount(options: SetupAccountOptions): Promise<SetupResult> {
  const { rest, account, signer, clock, log, signal } = options;
  const wait = options.wait ?? runOnce(signal);
  const who = { account: account.address, signer: signer.address };
  const { context, operatorHub } = await wait('reading the signing domain and the system config', (s) =>
    readSigningInfo(rest, s),
  );

  const faucet = await fundIfNeeded(options, wait);
  const registration = await wait('waiting for the account to be registered', (s) =>
    waitForRegistration({
      rest,
      account: account.address,
      clock,
      polling: options.registration ?? DEFAULT_REGISTRATION_POLLING,
      signal: s,
      onWaiting: ({ attempt, delayMs }) =>
        log.info(
          { account: account.address, attempt, delayMs },
          'account not registered yet (deposit not indexed); waiting',
        ),
    }),
  );
  log.info(
    {
      account: account.address,
      balance: registration.balance,
      polls: registration.polls,
      waitedMs: registration.waitedMs,
    },
    'account registered',
  );

  const before = await wait('reading the signer status', (s) =>
    readSignerStatus(rest, account.address, signer.address, s),
  );
  if (before.status === SESSION_KEY_REVOKED) {
    throw new SetupError(
      'registerSigner',
      `signer ${signer.address} was revoked for account ${account.address}; a revoked session key is not registered again`,
      {
        details: { ...who, status: before.status },
        hints: [
          'create a new signer key (perpbot keys new --dir DIR) and point keys.signer_key_file or PERPBOT_SIGNER_KEY at it',
        ],
      },
    );
  }
  let signerRegistration: SetupResult['signerRegistration'] = 'already-active';
  let transactionHash: string | undefined;
  if (before.status === SESSION_KEY_ACTIVE) {
    log.info({ ...who, status: before.status }, 'signer already Active; nothing sent');
  } else {
    const registered = await registerSigner({
      rest,
      context,
      account,
      signer,
      clock,
      validForSeconds: options.signerValidForSeconds ?? ONE_YEAR_SECONDS,
      ...(signal === undefined ? {} : { signal }),
    });
    signerRegistration = registered.alreadyActive ? 'already-active' : 'registered';
    transactionHash = registered.alreadyActive ? undefined : registered.transactionHash;
    log.info(
      {
        ...who,
        tx_hash: registered.transactionHash,
        expiration: registered.expiration,
        nonce_anchor: registered.nonce.anchor.toString(),
        nonce_bitmap_index: registered.nonce.bit,
      },
      registered.alreadyActive ? 'register-signer: venue reports the signer already Active' : 'register-signer sent',
    );
  }
  const status = await wait('confirming the signer status', (s) =>
    confirmSignerStatus({
      rest,
      account: account.address,
      signer: signer.address,
      expected: SESSION_KEY_ACTIVE,
      clock,
      signal: s,
    }),
  );
  log.info({ ...who, status: status.status }, 'signer Active');
  if (faucet === 'deposited' && options.tradingProbe !== undefined) {
    const probe = await confirmTradable({
      rest,
      context,
      account: account.address,
      signer,
      probe: options.tradingProbe,
      polling: options.registration ?? DEFAULT_REGISTRATION_POLLING,
      clock,
      ...(signal === undefined ? {} : { signal }),
      onWaiting: ({ attempt, delayMs }) =>
        log.info(
          { account: account.address, attempt, delayMs },
          'signed actions still refused as not registered; waiting',
        ),
    });
    log.info(
      { account: account.address, market: options.tradingProbe.marketId, attempts: probe.attempts },
      'account accepts signed actions (no-op cancel-all landed)',
    );
  }

  const result: SetupResult = {
    ...who,
    faucet,
    registration,
    signerRegistration,
    transactionHash,
    signerStatus: status.status,
  };
  if (options.jwt === undefined) return result;

  const tokens = await loginAccount({ rest, context, account, clock, ...(signal === undefined ? {} : { signal }) });
  log.info({ account: account.address, expires_in: tokens.expires_in }, 'logged in (JWT issued, not stored)');
  if (operatorHub === undefined) {
    throw new SetupError(
      'approveSingle',
      'the venue system config has no addresses.operator_hub, so the operator-hub allowance cannot be granted',
      {
        hints: ['use auth.mode permit, or check GET /v1/system/config on this venue'],
      },
    );
  }
  const approval = await approveOperator({
    rest,
    context,
    account,
    operator: operatorHub,
    budget: options.jwt.budget,
    validForSeconds: options.jwt.validForSeconds,
    clock,
    ...(signal === undefined ? {} : { signal }),
  });
  log.info(
    {
      account: account.address,
      operator: approval.operator,
      budget: approval.budget,
      allowance_expiry: approval.allowanceExpiry,
      tx_hash: approval.txHash,
    },
    'operator-hub allowance granted',
  );
  return { ...result, jwt: { accessTokenExpiresIn: tokens.expires_in, approval } };
}

/** One balance read decides: a registered account needs no faucet; otherwise ask it (testnet). */
async function fundIfNeeded(options: SetupAccountOptions, wait: VenueWait): Promise<SetupResult['faucet']> {
  const { rest, account, log, signal } = options;
  const registered = await wait('reading the account balance', (s) =>
    rest.crossMarginBalance(account.address, { signal: s }).then(
      () => true,
      (error: unknown) => {
        if (isNotRegisteredYet(error)) return false;
        throw error;
      },
    ),
  );
  if (registered) {
    log.info({ account: account.address }, 'account already registered; faucet not needed');
    return 'registered';
  }
  if (!options.faucet) {
    log.info(
      { account: account.address },
      'account not registered yet; no faucet on this venue, waiting for a collateral deposit to be indexed',
    );
    return 'not-used';
  }
  const outcome = await faucetDeposit(rest, account.address, signal);
  log.info(
    { account: account.address, outcome },
    outcome === 'deposited' ? 'faucet deposit made (1000 USDC)' : 'faucet already used by this wallet; continuing',
  );
  return outcome;
}
