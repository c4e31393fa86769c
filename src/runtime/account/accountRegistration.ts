import type { TradingProbe } from './confirmTradable.js';
import { confirmTradable } from './confirmTradable.js';
import { faucetDeposit, type FaucetOutcome } from './faucetDeposit.js';
import { signalOf, type SetupRun } from './setupRun.js';
import {
  isNotRegisteredYet,
  waitForRegistration,
  type RegistrationPolling,
  type RegistrationWait,
} from './waitForRegistration.js';

/** `registered`: the account was already registered, so the faucet was not asked. */
export type AccountFunding = FaucetOutcome | 'registered' | 'not-used';

const DEFAULT_REGISTRATION_POLLING: RegistrationPolling = { attempts: 10, baseMs: 500 };

/** One balance read decides: a registered account needs no faucet; otherwise ask it (testnet). */
export async function fundIfNeeded(run: SetupRun): Promise<AccountFunding> {
  const { rest, account, log, signal } = run.options;
  const registered = await run.wait('reading the account balance', (s) =>
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
  if (!run.options.faucet) {
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

/** Rides out the registration lag: the balance read answers once the deposit is indexed. */
export async function awaitRegistration(run: SetupRun): Promise<RegistrationWait> {
  const { rest, account, clock, log } = run.options;
  const registration = await run.wait('waiting for the account to be registered', (s) =>
    waitForRegistration({
      rest,
      account: account.address,
      clock,
      polling: run.options.registration ?? DEFAULT_REGISTRATION_POLLING,
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
  return registration;
}

/** After this run's own deposit: a no-op signed cancel-all proves signed actions are accepted. */
export async function probeTrading(run: SetupRun, probe: TradingProbe): Promise<void> {
  const { rest, account, signer, clock, log } = run.options;
  const result = await confirmTradable({
    rest,
    context: run.signing.context,
    account: account.address,
    signer,
    probe,
    polling: run.options.registration ?? DEFAULT_REGISTRATION_POLLING,
    clock,
    reservations: run.reservations,
    ...signalOf(run),
    onWaiting: ({ attempt, delayMs }) =>
      log.info(
        { account: account.address, attempt, delayMs },
        'signed actions still refused as not registered; waiting',
      ),
  });
  log.info(
    { account: account.address, market: probe.marketId, attempts: result.attempts },
    'account accepts signed actions (no-op cancel-all landed)',
  );
}
