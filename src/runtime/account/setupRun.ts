import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { NonceReservations } from '../../engine/nonces/oneShotNonces.js';
import type { VenueSigning } from '../../venue/venueInfo.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import type { TradingProbe } from './confirmTradable.js';
import type { VenueWait } from '../bot/startup/untilDeadline.js';
import type { RegistrationPolling } from './waitForRegistration.js';

/** The REST calls the setup flow makes; a full `RestClient` satisfies it. */
export type SetupRest = Pick<
  RestClient,
  | 'eip712Domain'
  | 'systemConfig'
  | 'nonceState'
  | 'deposit'
  | 'crossMarginBalance'
  | 'registerSigner'
  | 'revokeSigner'
  | 'sessionKeyStatus'
  | 'loginNonce'
  | 'login'
  | 'approveSingle'
  | 'cancelAll'
>;

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
  readonly log: Pick<Logger, 'info' | 'warn'>;
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
  /**
   * The bot's journal (`journal.path`): setup's nonces start above every pair it reserved and are
   * reserved in it before they are signed. Absent for throwaway accounts no bot has traded.
   */
  readonly journalPath?: string;
  readonly signal?: AbortSignal;
  /**
   * Runs each read-only step again while it fails transiently (the CLI: until
   * `venue.startup_deadline_ms`); default: once. Signed POSTs are never run again by it.
   */
  readonly wait?: VenueWait;
}

/** One run of the setup flow: its options and what every step shares. */
export interface SetupRun {
  readonly options: SetupAccountOptions;
  readonly wait: VenueWait;
  readonly signing: VenueSigning;
  readonly reservations: NonceReservations | undefined;
  /** The two addresses, for the log lines and the result. */
  readonly who: { readonly account: Address; readonly signer: Address };
}

/** `{ signal }` when the run has one: spread into a step's options. */
export function signalOf(run: SetupRun): { readonly signal?: AbortSignal } {
  return run.options.signal === undefined ? {} : { signal: run.options.signal };
}
