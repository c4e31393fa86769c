import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import { PerpbotError } from '../../core/perpbotError.js';
import type { NonceConfig } from '../../engine/config/engineConfig.js';
import { OneShotNonces, type NonceReservations } from '../../engine/nonces/oneShotNonces.js';
import { readVenueSigning } from '../../venue/venueInfo.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SelectorTable } from '../../protocol/selectors.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { sendCancelAll } from '../account/sendCancelAll.js';
import { withJournalReservations } from '../account/withJournalReservations.js';
import { runOnce, type VenueWait } from '../bot/startup/untilDeadline.js';

export type CancelAllOutcome =
  | { readonly marketId: number; readonly ok: true; readonly txHash: string | undefined }
  | { readonly marketId: number; readonly ok: false; readonly error: unknown };

export interface CancelAllMarketsOptions {
  readonly rest: Pick<RestClient, 'eip712Domain' | 'systemConfig' | 'nonceState' | 'cancelAll'>;
  readonly account: Address;
  readonly signer: SignerLike;
  readonly markets: readonly number[];
  readonly selectors: SelectorTable;
  readonly clock: Clock;
  readonly deadlineSeconds: number;
  readonly slots?: NonceConfig;
  /**
   * The bot's journal (`journal.path`): the cancels' nonces start above every pair it reserved and
   * are reserved in it before they are signed. Without it, only the venue's nonce state counts.
   */
  readonly journalPath?: string;
  readonly signal?: AbortSignal;
  /** Runs the read-only step again while it fails transiently (default: once). */
  readonly wait?: VenueWait;
}

/**
 * Cancel-all with a permit in each market, one after the other, every nonce from the engine's
 * allocator over a fresh nonce-state read and the journal's reservations. A market that fails
 * does not stop the others: this is the command run when something is wrong, so it does as much
 * as it can and reports each market. The reads before it ride out a flaky venue through `wait`;
 * the signed cancels are sent once each.
 */
export async function cancelAllMarkets(options: CancelAllMarketsOptions): Promise<CancelAllOutcome[]> {
  return withJournalReservations(
    options.journalPath,
    options.account,
    { name: 'cancel-all', clock: options.clock },
    async (reservations) => {
      const { context, nonces } = await readSigningAndNonces(options, reservations);
      const outcomes: CancelAllOutcome[] = [];
      for (const marketId of options.markets) outcomes.push(await cancelOneMarket(options, context, nonces, marketId));
      return outcomes;
    },
  );
}

function readSigningAndNonces(
  options: CancelAllMarketsOptions,
  reservations: NonceReservations | undefined,
): Promise<{ context: SigningContext; nonces: OneShotNonces }> {
  const { rest, account, slots } = options;
  return (options.wait ?? runOnce(options.signal))(
    'reading the signing domain and the nonce state',
    async (signal) => ({
      context: (await readVenueSigning(rest, signal)).context,
      nonces: await OneShotNonces.open({
        rest,
        account,
        signal,
        ...(slots === undefined ? {} : { slots }),
        ...(reservations === undefined ? {} : { reservations }),
      }),
    }),
  );
}

async function cancelOneMarket(
  options: CancelAllMarketsOptions,
  context: SigningContext,
  nonces: OneShotNonces,
  marketId: number,
): Promise<CancelAllOutcome> {
  const { signal } = options;
  try {
    const sent = await sendCancelAll({
      rest: options.rest,
      context,
      nonces,
      account: options.account,
      signer: options.signer,
      marketId,
      selectors: options.selectors,
      clock: options.clock,
      deadlineSeconds: options.deadlineSeconds,
      ...(signal === undefined ? {} : { signal }),
    });
    return { marketId, ok: true, txHash: sent.txHash };
  } catch (error) {
    signal?.throwIfAborted();
    return { marketId, ok: false, error };
  }
}

/** One error for the markets that failed, quoting the first failure's reason and hints. */
export function cancelAllFailure(outcomes: readonly CancelAllOutcome[]): PerpbotError | undefined {
  const failed = outcomes.filter((o): o is Extract<CancelAllOutcome, { ok: false }> => !o.ok);
  const first = failed[0];
  if (first === undefined) return undefined;
  const reason =
    first.error instanceof PerpbotError
      ? first.error.message
      : first.error instanceof Error
        ? first.error.message
        : String(first.error);
  return new PerpbotError(
    `cancel-all failed in market${failed.length > 1 ? 's' : ''} ${failed.map((f) => f.marketId).join(', ')}: ${reason}`,
    {
      code: 'CANCEL_ALL_FAILED',
      details: { markets: failed.map((f) => f.marketId) },
      hints: first.error instanceof PerpbotError ? first.error.hints : [],
      cause: first.error,
    },
  );
}
