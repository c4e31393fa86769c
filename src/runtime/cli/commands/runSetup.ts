import { resolve } from 'node:path';
import { decimalToWei } from '../../../core/decimal.js';
import { toPlaces, USDC_PLACES } from '../../../core/displayDecimal.js';
import { setupAccount, type SetupResult } from '../../account/setupAccount.js';
import {
  cliVenueWait,
  configuredMarkets,
  createCliLogger,
  createCliRestClient,
  loadCliConfig,
  loadCliKeys,
  logLevelFlag,
  remoteVenue,
  selectorsOf,
} from '../cliContext.js';
import { CliUsageError } from '../cliUsageError.js';
import { booleanFlag, integerFlag, stringFlag } from '../parseCommandArgs.js';
import { DEFAULT_ALLOWANCE_DAYS, DEFAULT_BUDGET_USD } from './flagDefaults.js';
import type { CliIo } from '../cliIo.js';
import type { ParsedArgs } from '../commandSpec.js';
import { openJournal } from '../../../journal/openJournal.js';
import { recordOperatorAllowance } from '../../protection/operatorAllowance.js';

const FAUCET_TEXT: Readonly<Record<SetupResult['faucet'], string>> = {
  deposited: 'faucet paid 1000 USDC',
  'already-used': 'faucet already used by this wallet',
  registered: 'already registered (faucet not needed)',
  'not-used': 'registered by a collateral deposit (no faucet on this venue)',
};

function summary(result: SetupResult): string {
  const lines = [
    `account  ${result.account}  ${FAUCET_TEXT[result.faucet]}; balance ${toPlaces(result.registration.balance, USDC_PLACES)} USDC`,
    `signer   ${result.signer}  Active (${result.signerRegistration === 'registered' ? `registered, tx ${result.transactionHash ?? '-'}` : 'already registered'})`,
  ];
  if (result.jwt !== undefined) {
    const a = result.jwt.approval;
    lines.push(
      `jwt      login works (token not stored); operator hub ${a.operator} approved for ${a.budget} USD until ${new Date(a.allowanceExpiry * 1000).toISOString()}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `perpbot setup`: the setup flow with the config's keys and venue, then a short summary. */
export async function runSetup(args: ParsedArgs, io: CliIo): Promise<number> {
  const budget = stringFlag(args, 'budget') ?? DEFAULT_BUDGET_USD;
  const days = integerFlag(args, 'allowance-days', 1, 3650) ?? DEFAULT_ALLOWANCE_DAYS;
  try {
    if (decimalToWei(budget, '--budget') <= 0n)
      throw new CliUsageError(`--budget: expected a positive USD amount, got ${JSON.stringify(budget)}`);
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    throw new CliUsageError(
      `--budget: invalid value ${JSON.stringify(budget)}; expected a USD amount such as 1000 or 250.5`,
    );
  }
  const level = logLevelFlag(args);
  const config = await loadCliConfig(args, io);
  // A config that trades with JWTs needs the login and the allowance whether or not --jwt is given;
  // one with protection: needs the allowance too (the venue pays its TP/SL executions from it).
  const protectedConfig = config.strategies.some((s) => s.protection !== undefined);
  const jwt = booleanFlag(args, 'jwt') || config.auth.mode === 'jwt' || protectedConfig;
  if (!jwt && (stringFlag(args, 'budget') !== undefined || stringFlag(args, 'allowance-days') !== undefined)) {
    throw new CliUsageError(
      '--budget and --allowance-days apply only with --jwt (or auth.mode: jwt, or a strategy with protection:)',
    );
  }
  const venue = remoteVenue(config, 'setup');
  const { account, signer } = await loadCliKeys(config, io);
  const log = createCliLogger(config, io.stdout, level);
  const faucet = config.venue.profile !== 'mainnet';
  const firstMarket = configuredMarkets(config)[0];
  const result = await setupAccount({
    rest: createCliRestClient(config, venue.restUrl, log),
    account,
    signer,
    clock: io.clock,
    log,
    faucet,
    registration: {
      attempts: config.engine.registration_retry.attempts,
      baseMs: config.engine.registration_retry.base_ms,
    },
    ...(faucet && firstMarket !== undefined
      ? {
          tradingProbe: {
            marketId: firstMarket,
            selectors: selectorsOf(config),
            deadlineSeconds: config.auth.permit_deadline_seconds,
          },
        }
      : {}),
    ...(jwt ? { jwt: { budget, validForSeconds: days * 86_400 } } : {}),
    journalPath: resolve(io.cwd, config.journal.path),
    signal: io.shutdown,
    wait: cliVenueWait(config, io, log),
  });
  if (result.jwt !== undefined) journalAllowance(resolve(io.cwd, config.journal.path), result, io.clock.now());
  io.stdout.write(summary(result));
  return 0;
}

/** The allowance granted, journaled: the bot's watchdog judges its TP/SL budget and expiry by it. */
function journalAllowance(path: string, result: SetupResult, atMs: number): void {
  if (result.jwt === undefined) return;
  const journal = openJournal(path);
  try {
    recordOperatorAllowance(journal.db, result.account, result.jwt.approval, atMs);
  } finally {
    journal.close();
  }
}
