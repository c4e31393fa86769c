import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { TpslClient } from '../../venue/rest/tpslClient.js';
import { readVenueSigning } from '../../venue/venueInfo.js';

export interface TpslCancelOutcome {
  readonly marketId: number;
  readonly ok: boolean;
  /** How many the venue said it cancelled, when it says. */
  readonly cancelled?: number | undefined;
  readonly error?: unknown;
}

/**
 * `perpbot cancel-all --protection`: the venue's TP/SL cancel-all in each market (its ACCEPTED
 * orders; a TRIGGERED one is executing and stays), signed by the session signer. A running bot
 * places its protection again on its next pass: stop it first, or set `shutdown.protection: cancel`.
 */
export async function cancelAllTpsl(o: {
  readonly rest: RestClient;
  readonly account: Address;
  readonly signer: SignerLike & { readonly address: Address };
  readonly markets: readonly number[];
  readonly clock: Clock;
}): Promise<TpslCancelOutcome[]> {
  const { context } = await readVenueSigning(o.rest);
  const client = new TpslClient({ rest: o.rest, context, signer: o.signer, account: o.account, clock: o.clock });
  const outcomes: TpslCancelOutcome[] = [];
  for (const marketId of o.markets) {
    try {
      const answer = await client.cancelAll(marketId);
      outcomes.push({ marketId, ok: answer.success, cancelled: answer.cancelled_count });
    } catch (error) {
      outcomes.push({ marketId, ok: false, error });
    }
  }
  return outcomes;
}
