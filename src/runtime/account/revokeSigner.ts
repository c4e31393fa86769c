import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import { OneShotNonces, type NonceReservations } from '../../engine/nonces/oneShotNonces.js';
import { readVenueSigning } from '../../venue/venueInfo.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import { signTypedStruct } from '../../protocol/typedSignatures.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import type { SessionKeyStatus } from '../../venue/schemas/restAuth.js';
import { SetupError } from './setupError.js';
import { confirmSignerStatus, readSignerStatus, SESSION_KEY_ACTIVE, SESSION_KEY_REVOKED } from './signerStatus.js';
import { withJournalReservations } from './withJournalReservations.js';
import { runOnce, type VenueWait } from '../bot/startup/untilDeadline.js';
import type { Logger } from '../../core/logger.js';

export interface RevokeResult {
  readonly signer: Address;
  /** undefined when the signer was already revoked and nothing was sent. */
  readonly transactionHash: string | undefined;
  readonly status: number;
}

interface RevokeOptions {
  readonly rest: Pick<RestClient, 'eip712Domain' | 'systemConfig' | 'nonceState' | 'revokeSigner' | 'sessionKeyStatus'>;
  readonly account: SignerLike & { readonly address: Address };
  readonly signer: Address;
  readonly clock: Clock;
  readonly log: Pick<Logger, 'info' | 'warn'>;
  /** The bot's journal (`journal.path`): the revoke's nonce is reserved there before it is signed. */
  readonly journalPath?: string;
  readonly signal?: AbortSignal;
  /** Runs each read-only step again while it fails transiently (default: once). */
  readonly wait?: VenueWait;
}

/**
 * RevokeSigner signed by the account key (spec "Revoke a signer"), then GET
 * /v1/auth/session-key-status until it shows 3. A signer already at 3 is left alone; one that was
 * never registered is an error, since nothing could be revoked. The reads ride out a flaky venue
 * through `wait`; the signed revoke is sent once (a re-run reads the status first).
 */
export async function revokeSigner(options: RevokeOptions): Promise<RevokeResult> {
  const { rest, account, signer, clock, log } = options;
  const wait = options.wait ?? runOnce(options.signal);
  const before = await wait('reading the signer status', (s) => readSignerStatus(rest, account.address, signer, s));
  if (before.status === SESSION_KEY_REVOKED) {
    log.info({ account: account.address, signer, status: before.status }, 'signer already revoked; nothing sent');
    return { signer, transactionHash: undefined, status: before.status };
  }
  if (before.status !== SESSION_KEY_ACTIVE) throw notRegistered(account.address, signer, before);
  const transactionHash = await withJournalReservations(
    options.journalPath,
    account.address,
    { name: 'revoke-signer', clock },
    (reservations) => sendRevoke(options, wait, reservations),
  );
  const after = await wait('confirming the signer status', (s) =>
    confirmSignerStatus({ rest, account: account.address, signer, expected: SESSION_KEY_REVOKED, clock, signal: s }),
  );
  log.info({ account: account.address, signer, status: after.status }, 'signer revoked');
  return { signer, transactionHash, status: after.status };
}

function notRegistered(account: Address, signer: Address, status: SessionKeyStatus): SetupError {
  return new SetupError(
    'revokeSigner',
    `signer ${signer} is not registered for account ${account} (status ${status.status}, ${status.status_description})`,
    {
      details: { account, signer, status: status.status },
      hints: ['check that the signer key is the one registered with setup for this account'],
    },
  );
}

/** Reads the domain and the nonces, then signs and sends the revoke once; returns the venue's transaction hash. */
async function sendRevoke(
  options: RevokeOptions,
  wait: VenueWait,
  reservations: NonceReservations | undefined,
): Promise<string | undefined> {
  const { rest, account, signer, log, signal } = options;
  const { context, nonces } = await wait('reading the signing domain and the nonce state', async (s) => ({
    context: (await readVenueSigning(rest, s)).context,
    nonces: await OneShotNonces.open({ rest, account: account.address, signal: s, reservations }),
  }));
  return nonces.use('revoke-signer', async (nonce) => {
    const signature = await signTypedStruct(context, account, 'RevokeSigner', {
      account: account.address,
      signer,
      nonceAnchor: nonce.anchor,
      nonceBitmap: nonce.bit,
    });
    const answer = await rest.revokeSigner(
      {
        account: account.address,
        signer,
        nonce_anchor: nonce.anchor.toString(),
        nonce_bitmap_index: nonce.bit,
        account_signature: signature,
      },
      signal === undefined ? undefined : { signal },
    );
    log.info(
      {
        account: account.address,
        signer,
        tx_hash: answer.transaction_hash,
        nonce_anchor: nonce.anchor.toString(),
        nonce_bitmap_index: nonce.bit,
      },
      'revoke-signer sent',
    );
    return answer.transaction_hash;
  });
}
