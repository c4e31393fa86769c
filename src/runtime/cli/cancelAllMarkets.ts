import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import { PerpbotError } from '../../core/perpbotError.js';
import type { NonceConfig } from '../../engine/engineConfig.js';
import { NonceAllocator } from '../../engine/nonces/nonceAllocator.js';
import { parseNonceState } from '../../engine/nonces/noncePair.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SelectorTable } from '../../protocol/selectors.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { readSigningInfo } from '../setup/readSigningInfo.js';
import { sendCancelAll } from '../setup/sendCancelAll.js';
import { runOnce, type VenueWait } from '../startup/untilDeadline.js';

export type CancelAllOutcome =
  | { readonly marketId: number; readonly ok: true; readonly txHash: string | undefined }
  | { readonly marketId: number; readonly ok: false; readonly error: unknown };

/**
 * Cancel-all with a permit in each market, one after the other, every nonce from one allocator
 * over a fresh nonce-state read. A market that fails does not stop the others: this is the
 * command run when something is wrong, so it does as much as it can and reports each market.
 * The reads before it ride out a flaky venue through `wait`; the signed cancels are sent once each.
 */
export async function cancelAllMarkets(options: {
  readonly rest: Pick<RestClient, 'eip712Domain' | 'systemConfig' | 'nonceState' | 'cancelAll'>;
  readonly account: Address;
  readonly signer: SignerLike;
  readonly markets: readonly number[];
  readonly selectors: SelectorTable;
  readonly clock: Clock;
  readonly deadlineSeconds: number;
  readonly slots?: NonceConfig;
  readonly signal?: AbortSignal;
  /** Runs the read-only step again while it fails transiently (default: once). */
  readonly wait?: VenueWait;
}): Promise<CancelAllOutcome[]> {
  const { rest, account, signal } = options;
  const { context, nonceState } = await (options.wait ?? runOnce(signal))(
    'reading the signing domain and the nonce state',
    async (s) => ({
      context: (await readSigningInfo(rest, s)).context,
      nonceState: parseNonceState(await rest.nonceState(account, { signal: s })),
    }),
  );
  const allocator = new NonceAllocator(
    account,
    nonceState,
    options.slots === undefined ? {} : { slots: options.slots },
  );
  const outcomes: CancelAllOutcome[] = [];
  for (const marketId of options.markets) {
    try {
      const sent = await sendCancelAll({
        rest,
        context,
        allocator,
        account,
        signer: options.signer,
        marketId,
        selectors: options.selectors,
        clock: options.clock,
        deadlineSeconds: options.deadlineSeconds,
        ...(signal === undefined ? {} : { signal }),
      });
      outcomes.push({ marketId, ok: true, txHash: sent.txHash });
    } catch (error) {
      signal?.throwIfAborted();
      outcomes.push({ marketId, ok: false, error });
    }
  }
  return outcomes;
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
