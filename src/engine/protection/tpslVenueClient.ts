import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { TpslVenue } from './protectionKeeper.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { TpslClient } from '../../venue/rest/tpslClient.js';
import { ACTIVE_TPSL_STATUSES } from '../../venue/schemas/tpslNames.js';

export interface TpslVenueClientOptions {
  readonly rest: RestClient;
  readonly account: Address;
  readonly signer: SignerLike & { readonly address: Address };
  /** The venue's signing domain, known once the engine started. */
  readonly context: () => SigningContext;
  readonly clock: Clock;
}

/**
 * The keeper's venue: the TP/SL client, made on first use (its signing domain is the started
 * engine's); its list, the active orders and those created since the keeper's oldest live one.
 */
export function tpslVenueClient(o: TpslVenueClientOptions): TpslVenue {
  let client: TpslClient | undefined;
  const get = (): TpslClient =>
    (client ??= new TpslClient({
      rest: o.rest,
      context: o.context(),
      signer: o.signer,
      account: o.account,
      clock: o.clock,
    }));
  return {
    place: (order) => get().place(order),
    cancel: (venueId) => get().cancel(venueId),
    listAll: async (sinceMs) => {
      if (sinceMs === undefined) return (await get().listAll()).orders;
      const [active, recent] = await Promise.all([
        get().listAll({ statuses: ACTIVE_TPSL_STATUSES }),
        get().listAll({ startTime: BigInt(Math.max(0, Math.floor(sinceMs))) * 1_000_000n }),
      ]);
      // One record an order; an order in both reads takes the later read's (its status moved on, or is the same).
      return [...new Map([...active.orders, ...recent.orders].map((r) => [r.order_id, r])).values()];
    },
  };
}
