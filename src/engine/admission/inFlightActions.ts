import type { Clock } from '../../core/clock.js';
import { isPlaceIntent, type Intent } from '../intents/intents.js';

/** What the holder of an in-flight slot calls once its action is over. */
export interface InFlightTicket {
  /** The action settled or will not be sent. Later calls do nothing. */
  settled(): void;
}

interface Entry {
  readonly strategy: string;
  readonly marketId: number;
  readonly placement: boolean;
  readonly leverage: boolean;
}

export interface InFlightFilter {
  /** Only this strategy's intents. */
  readonly strategy?: string | undefined;
  /** Only placements (a strategy's budget counts its orders, not its cancels). */
  readonly placementsOnly?: boolean | undefined;
  /** Leave this intent out: the one being judged, already held by an earlier gate. */
  readonly excluding?: string;
}

const NO_COUNTS: ReadonlyMap<number, number> = new Map();

/**
 * The one count of actions in flight: from the first gate that admits an intent (its strategy's
 * budget, or the account's guards) until it settles (answered, failed, given up, or refused on
 * its way). Every gate reads it, so a burst admitted together is counted before any of it reaches
 * the venue, and a strategy's budget and the account's limits see the same intents. Leverage
 * updates also go one at a time: the venue allows one per second and measures between arrivals,
 * so the next waits for the previous answer (see `checkLeverageRate`).
 */
export class InFlightActions {
  private readonly entries = new Map<string, Entry>();
  /** Every entry per market, kept as entries come and go: the account's count, read per admission. */
  private readonly perMarket = new Map<number, number>();
  private leverageHeld = 0;
  private leverageSettledMs: number | undefined;

  constructor(private readonly clock: Clock) {}

  get size(): number {
    return this.entries.size;
  }

  /** A leverage update other than `excluding` was admitted and has not settled. */
  leverageInFlight(excluding?: string): boolean {
    const own = excluding !== undefined && this.entries.get(excluding)?.leverage === true ? 1 : 0;
    return this.leverageHeld - own > 0;
  }

  /** When the last leverage update settled (its answer arrived, or it was given up). */
  get lastLeverageUpdateMs(): number | undefined {
    return this.leverageSettledMs;
  }

  has(intentId: string): boolean {
    return this.entries.has(intentId);
  }

  /** Counts the intent from now on; holding one already held returns a ticket for the same entry. */
  hold(intent: Intent): InFlightTicket {
    const { intentId } = intent;
    if (!this.entries.has(intentId)) {
      const entry = {
        strategy: intent.strategy,
        marketId: intent.marketId,
        placement: isPlaceIntent(intent),
        leverage: intent.kind === 'setLeverage',
      };
      this.entries.set(intentId, entry);
      this.count(entry, 1);
    }
    return new Ticket(this, intentId);
  }

  /** Stops counting the intent (idempotent): its outcome is known. */
  release(intentId: string): void {
    const entry = this.entries.get(intentId);
    if (entry === undefined) return;
    this.entries.delete(intentId);
    this.count(entry, -1);
    if (entry.leverage) this.leverageSettledMs = this.clock.now();
  }

  /** In-flight actions per market that match the filter. */
  byMarket(filter: InFlightFilter = {}): ReadonlyMap<number, number> {
    if (this.entries.size === 0) return NO_COUNTS;
    if (filter.strategy === undefined && filter.placementsOnly !== true) return this.allBut(filter.excluding);
    const counts = new Map<number, number>();
    for (const [intentId, entry] of this.entries) {
      if (intentId === filter.excluding) continue;
      if (filter.strategy !== undefined && entry.strategy !== filter.strategy) continue;
      if (filter.placementsOnly === true && !entry.placement) continue;
      counts.set(entry.marketId, (counts.get(entry.marketId) ?? 0) + 1);
    }
    return counts;
  }

  /** Every entry per market, less `excluding`'s: no walk over the entries on the account's hot path. */
  private allBut(excluding: string | undefined): ReadonlyMap<number, number> {
    const own = excluding === undefined ? undefined : this.entries.get(excluding);
    if (own === undefined) return this.perMarket;
    const counts = new Map(this.perMarket);
    const n = (counts.get(own.marketId) ?? 0) - 1;
    if (n > 0) counts.set(own.marketId, n);
    else counts.delete(own.marketId);
    return counts;
  }

  private count(entry: Entry, delta: 1 | -1): void {
    const n = (this.perMarket.get(entry.marketId) ?? 0) + delta;
    if (n > 0) this.perMarket.set(entry.marketId, n);
    else this.perMarket.delete(entry.marketId);
    if (entry.leverage) this.leverageHeld += delta;
  }
}

/**
 * The scope's filter less the intent being judged, always with the same three keys: a spread that
 * adds a key makes V8 build a new hidden class on every call, and this runs per intent.
 */
export function inFlightFilterExcluding(
  filter: Omit<InFlightFilter, 'excluding'> | undefined,
  excluding: string,
): InFlightFilter {
  return { strategy: filter?.strategy, placementsOnly: filter?.placementsOnly, excluding };
}

/** A class rather than a closure per admitted intent. */
class Ticket implements InFlightTicket {
  readonly #actions: InFlightActions;
  readonly #intentId: string;

  constructor(actions: InFlightActions, intentId: string) {
    this.#actions = actions;
    this.#intentId = intentId;
  }

  settled(): void {
    this.#actions.release(this.#intentId);
  }
}
