import { registerSigner, ONE_YEAR_SECONDS } from '../../engine/account/registerSigner.js';
import { SetupError } from './setupError.js';
import { signalOf, type SetupRun } from './setupRun.js';
import { confirmSignerStatus, readSignerStatus, SESSION_KEY_ACTIVE, SESSION_KEY_REVOKED } from './signerStatus.js';

export interface SignerActivation {
  readonly signerRegistration: 'registered' | 'already-active';
  /** undefined when nothing was registered (the signer was already Active). */
  readonly transactionHash: string | undefined;
  readonly signerStatus: number;
}

/**
 * Leaves the session key Active: reads its status, registers it unless it is already Active (a
 * revoked key is never registered again), then reads the status until it shows Active.
 */
export async function activateSigner(run: SetupRun): Promise<SignerActivation> {
  const { rest, account, signer, clock, log } = run.options;
  const before = await run.wait('reading the signer status', (s) =>
    readSignerStatus(rest, account.address, signer.address, s),
  );
  if (before.status === SESSION_KEY_REVOKED) throw revokedSigner(run.who, before.status);
  let sent: Omit<SignerActivation, 'signerStatus'> = {
    signerRegistration: 'already-active',
    transactionHash: undefined,
  };
  if (before.status === SESSION_KEY_ACTIVE)
    log.info({ ...run.who, status: before.status }, 'signer already Active; nothing sent');
  else sent = await register(run);
  const status = await run.wait('confirming the signer status', (s) =>
    confirmSignerStatus({
      rest,
      account: account.address,
      signer: signer.address,
      expected: SESSION_KEY_ACTIVE,
      clock,
      signal: s,
    }),
  );
  log.info({ ...run.who, status: status.status }, 'signer Active');
  return { ...sent, signerStatus: status.status };
}

function revokedSigner(who: SetupRun['who'], status: number): SetupError {
  return new SetupError(
    'registerSigner',
    `signer ${who.signer} was revoked for account ${who.account}; a revoked session key is not registered again`,
    {
      details: { ...who, status },
      hints: [
        'create a new signer key (perpbot keys new --dir DIR) and point keys.signer_key_file or PERPBOT_SIGNER_KEY at it',
      ],
    },
  );
}

/** RegisterSigner (sent once); the venue answering an already Active signer counts as done. */
async function register(run: SetupRun): Promise<Omit<SignerActivation, 'signerStatus'>> {
  const { rest, account, signer, clock, log } = run.options;
  const registered = await registerSigner({
    rest,
    context: run.signing.context,
    account,
    signer,
    clock,
    validForSeconds: run.options.signerValidForSeconds ?? ONE_YEAR_SECONDS,
    reservations: run.reservations,
    ...signalOf(run),
  });
  log.info(
    {
      ...run.who,
      tx_hash: registered.transactionHash,
      expiration: registered.expiration,
      nonce_anchor: registered.nonce.anchor.toString(),
      nonce_bitmap_index: registered.nonce.bit,
    },
    registered.alreadyActive ? 'register-signer: venue reports the signer already Active' : 'register-signer sent',
  );
  return registered.alreadyActive
    ? { signerRegistration: 'already-active', transactionHash: undefined }
    : { signerRegistration: 'registered', transactionHash: registered.transactionHash };
}
