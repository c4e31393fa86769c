import type { Address } from '../core/address.js';
import { parseDomain } from '../protocol/domain.js';
import { createSigningContext, type SigningContext } from '../protocol/signingContext.js';
import type { RestClient } from './rest/restClient.js';
import type { Market } from './schemas/restMarkets.js';

/** What signing needs from the venue: the EIP-712 domain with the permit target, and the operator hub. */
export interface VenueSigning {
  readonly context: SigningContext;
  /** `addresses.operator_hub` of the system config, when the venue publishes one. */
  readonly operatorHub: Address | undefined;
}

type SigningRest = Pick<RestClient, 'eip712Domain' | 'systemConfig'>;

/**
 * The EIP-712 domain and the system config, read fresh (spec: contract addresses change on
 * redeploys and are read at run time): the permit target is `addresses.router`. Setup and the CLI
 * call this once per command; the engine through its `VenueInfo`.
 */
export async function readVenueSigning(rest: SigningRest, signal?: AbortSignal): Promise<VenueSigning> {
  const call = signal === undefined ? undefined : { signal };
  const [domain, system] = await Promise.all([rest.eip712Domain(call), rest.systemConfig(call)]);
  const context = createSigningContext(
    parseDomain({
      name: domain.name,
      version: domain.version,
      chain_id: domain.chain_id.toString(),
      verifying_contract: domain.verifying_contract,
    }),
    system.addresses.router,
  );
  return { context, operatorHub: system.addresses.operator_hub };
}

type MarketsRest = Pick<RestClient, 'markets'>;

/**
 * The market records (GET /v1/markets), read fresh: the one place the venue's markets are read, by
 * `VenueInfo` for the engine and directly by the commands and the reconciliation that have no engine.
 */
export async function readMarkets(rest: MarketsRest, signal?: AbortSignal): Promise<readonly Market[]> {
  return (await rest.markets(signal === undefined ? undefined : { signal })).markets;
}

/**
 * A market as the pre-trade checks read it: one object per market, made when the records are read,
 * whose mark the oracle moves in place. Every oracle frame moves every mark, so a copy of the record
 * per order would cost for nothing; the checks read it synchronously and keep nothing of it. Fixed
 * keys (absent flags are undefined), so every view has the same layout.
 */
interface LiveMarket {
  readonly market_id: string;
  mark_price: string;
  readonly active: boolean | undefined;
  readonly post_only: boolean | undefined;
  readonly reduce_only: boolean | undefined;
  readonly config: Market['config'];
}

function liveMarket(m: Market): LiveMarket {
  return {
    market_id: m.market_id,
    mark_price: m.mark_price,
    active: m.active,
    post_only: m.post_only,
    reduce_only: m.reduce_only,
    config: m.config,
  };
}

/**
 * The venue as the engine knows it: the signing info and the market records, each read at start and
 * read again on demand (signing after SignerNotAuthorized, markets by the runtime). Live marks from
 * the oracle go to the checks' views in place, and into a market's record when it is next read:
 * every oracle frame carries every market, so copying the record per frame would cost for nothing.
 */
export class VenueInfo {
  private current: VenueSigning | undefined;
  private marketsById = new Map<number, Market>();
  /** The checks' views of `marketsById`, holding the live marks (see `liveMarket`). */
  private liveById = new Map<number, LiveMarket>();

  constructor(private readonly rest: SigningRest & MarketsRest) {}

  /** The last signing info read, or undefined before the first `refreshSigning`. */
  get signing(): VenueSigning | undefined {
    return this.current;
  }

  /**
   * Reads the domain and the system config again; permits signed afterwards use what it read.
   * `changed` says whether the router or the domain differ from the previous read (a redeploy).
   */
  async refreshSigning(signal?: AbortSignal): Promise<{ readonly signing: VenueSigning; readonly changed: boolean }> {
    const next = await readVenueSigning(this.rest, signal);
    const before = this.current;
    this.current = next;
    return { signing: next, changed: before !== undefined && !sameSigningContext(before.context, next.context) };
  }

  /** Reads the markets again: their records replace the old ones, live marks included. */
  async refreshMarkets(signal?: AbortSignal): Promise<readonly Market[]> {
    const markets = await readMarkets(this.rest, signal);
    this.marketsById = new Map(markets.map((m) => [Number(m.market_id), m]));
    this.liveById = new Map(markets.map((m) => [Number(m.market_id), liveMarket(m)]));
    return markets;
  }

  /** A live mark for a known market (an unknown one is ignored: there is no record to carry it). */
  setMark(marketId: number, markPrice: string): void {
    const live = this.liveById.get(marketId);
    if (live !== undefined) live.mark_price = markPrice;
  }

  /** The market's record with its live mark: copied here, on the first read after the mark moved. */
  market(marketId: number): Market | undefined {
    const market = this.marketsById.get(marketId);
    const mark = this.liveById.get(marketId)?.mark_price;
    if (market === undefined || mark === undefined || mark === market.mark_price) return market;
    const merged = { ...market, mark_price: mark };
    this.marketsById.set(marketId, merged);
    return merged;
  }

  /**
   * The market's config (tick, step, minimum size), as `market(id)?.config` gives it (the same
   * object), without copying the record: a strategy reads its tick at every mark, and the copy
   * `market` makes after every mark move was about 5 µs of a replay's mark.
   */
  marketConfig(marketId: number): Market['config'] | undefined {
    return this.marketsById.get(marketId)?.config;
  }

  /**
   * The market's live mark, as `market(id)?.mark_price` gives it, without copying the record: the
   * ledger values every position at each mark, and a copy per mark was about 1 % of a replay.
   */
  markOf(marketId: number): string | undefined {
    return this.liveById.get(marketId)?.mark_price ?? this.marketsById.get(marketId)?.mark_price;
  }

  /**
   * The market as the pre-trade checks read it, with its live mark, without a copy: an object that
   * changes as marks arrive, to be read at once and not kept (`market` gives a record to keep).
   */
  checkedMarket(marketId: number): LiveMarket | undefined {
    return this.liveById.get(marketId);
  }

  markets(): readonly Market[] {
    const out: Market[] = [];
    for (const marketId of this.marketsById.keys()) out.push(this.market(marketId) as Market);
    return out;
  }

  marketIds(): number[] {
    return [...this.marketsById.keys()];
  }
}

function sameSigningContext(a: SigningContext, b: SigningContext): boolean {
  return (
    a.router.toLowerCase() === b.router.toLowerCase() &&
    a.separator.length === b.separator.length &&
    a.separator.every((byte, i) => byte === b.separator[i])
  );
}
