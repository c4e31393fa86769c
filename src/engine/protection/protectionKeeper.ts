import type { Clock } from '../../core/clock.js';
import { compareDecimals } from '../../core/decimal.js';
import type { Logger } from '../../core/logger.js';
import type { TpslOrderRecord } from '../../venue/schemas/restTpsl.js';
import type { FillRecord } from '../../venue/schemas/wsFramesPrivate.js';
import { VenueError } from '../../venue/venueError.js';
import type { TpslOrderRequest } from '../../venue/rest/tpslClient.js';
import { emulatedStopFires } from './emulatedTrigger.js';
import { wantedLegs, type ProtectedPosition, type ProtectionSpec, type WantedLeg } from './protectionLegs.js';
import { TpslFillClaims, type FillOwner } from './tpslFillClaims.js';
import { stopTypeOf, type TpslOrder, type TpslRole, type TpslTrigger } from './tpslOrder.js';
import { TpslOrders, type TpslStore } from './tpslOrders.js';
import { isLiveTpsl, isVenueProtecting } from './tpslState.js';
import { applyVenueList } from './tpslVenueList.js';

/** The venue's TP/SL calls the keeper makes (a `TpslClient` of the account, signed by the session signer). */
export interface TpslVenue {
  place(order: TpslOrderRequest): Promise<{ readonly order_id: string }>;
  cancel(venueId: string): Promise<unknown>;
  /** Every TP/SL order of the account: both stop types, every status. */
  listAll(): Promise<readonly TpslOrderRecord[]>;
}

/** A protected position the venue does not protect (see `ProtectionKeeper.unprotected`). */
export interface UnprotectedPosition {
  readonly strategy: string;
  readonly marketId: number;
  readonly sinceMs: number;
  /** The venue refuses TP/SL orders: the stops are emulated by this process. */
  readonly emulated: boolean;
}

/** One strategy's protection of one market. */
export interface ProtectedMarket {
  readonly strategy: string;
  readonly marketId: number;
  readonly spec: ProtectionSpec;
}

export interface ProtectionKeeperOptions {
  readonly venue: TpslVenue;
  readonly store: TpslStore;
  /** Live TP/SL orders a previous run journaled. */
  readonly restored: readonly TpslOrder[];
  readonly protections: readonly ProtectedMarket[];
  /** The position a protection covers (the account's in that market), undefined when flat or not known. */
  position(marketId: number): ProtectedPosition | undefined;
  /** The market's price grid (`step_price`). */
  stepPrice(marketId: number): string | undefined;
  /** What an emulated stop watches: the mark, or the last trade. */
  watchedPrice(marketId: number, trigger: TpslTrigger): string | undefined;
  /** Closes the position of an emulated stop that fired (a reduce-only market order of the strategy). */
  closePosition(protection: ProtectedMarket, order: TpslOrder): Promise<void>;
  readonly clock: Clock;
  readonly log: Logger;
  /** How often the venue's list is read while nothing asks sooner; default 2000 ms. */
  readonly venueReadEveryMs?: number;
}

const STOP_PRICE_OPTION = { mark: 'MARK_PRICE', last: 'LAST_TRADED_PRICE' } as const;

/**
 * Keeps the venue's TP/SL orders equal to each protected position: a leg of the position's size
 * at its stop price for each configured role, replaced (placed first, then the old one cancelled:
 * never naked) when the size, side or price changes, cancelled when the position is flat. When
 * one of a pair fires, the other is cancelled. The venue's list is the truth: read at start,
 * every `venueReadEveryMs`, after a reconnect, and when a fill of an execution arrives. Passes
 * are serialized, so a leg is never placed twice at once. If the venue refuses TP/SL orders, legs
 * are emulated: the keeper watches the trigger and closes the position itself while it runs.
 */
export class ProtectionKeeper {
  readonly orders: TpslOrders;
  private readonly claims = new TpslFillClaims();
  private readonly markets: ReadonlySet<number>;
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  private lastVenueReadMs: number | undefined;
  private venueReadWanted = true;
  private venueRefusal: string | undefined;
  private readonly foreignSeen = new Set<string>();
  private seq = 0;
  /** Protected positions without their venue legs, since when (the watchdog's grace). */
  private readonly bareSince = new Map<string, number>();
  /** Protected markets whose emulated stop fired, since when (see `closing`). */
  private readonly closingSince = new Map<string, { readonly sinceMs: number; readonly size: string }>();
  private stopped = false;

  constructor(private readonly o: ProtectionKeeperOptions) {
    this.orders = new TpslOrders(o.store, (refusal, order) =>
      o.log.warn({ tpsl: order.id, ...refusal }, `TP/SL change refused: ${refusal.reason}`),
    );
    this.orders.restore(o.restored);
    this.markets = new Set(o.protections.map((p) => p.marketId));
    this.dropEmulated(o.restored);
  }

  /**
   * Emulated stops of a previous run protected nothing while the bot was away: said at start, and
   * ended, so this run asks the venue again (it may accept TP/SL orders now).
   */
  private dropEmulated(restored: readonly TpslOrder[]): void {
    const emulated = restored.filter((o) => o.state === 'emulated');
    if (emulated.length === 0) return;
    this.o.log.error(
      { emulated: emulated.map((o) => ({ tpsl: o.id, strategy: o.strategy, market: o.marketId, reason: o.reason })) },
      'TP/SL EMULATED in the last run: the venue refused TP/SL orders, so those positions were unprotected while the bot was away; asking the venue again',
    );
    for (const order of emulated) this.orders.apply(order.id, { type: 'cancel_sent' }, this.o.clock.now());
  }

  /** Why the venue refuses TP/SL orders (the legs are emulated), or undefined. */
  get refusal(): string | undefined {
    return this.venueRefusal;
  }

  get protections(): readonly ProtectedMarket[] {
    return this.o.protections;
  }

  /** One pass now (reading the venue's list when due or `readVenue`); resolves when it is done. */
  sync(readVenue = false): Promise<void> {
    if (readVenue) this.venueReadWanted = true;
    // One pass waiting is enough: it sees whatever asked for it.
    if (this.queued !== undefined) return this.queued;
    const next = this.running.then(() => {
      this.queued = undefined;
      return this.pass();
    });
    this.queued = next;
    this.running = next.catch((err: unknown) => this.o.log.warn({ err }, 'protection pass failed; trying again'));
    return next;
  }

  /** After a reconnect: the list may have changed unseen. */
  onReconnect(): void {
    this.venueReadWanted = true;
  }

  /** The TP/SL a fill of an unknown order executes, when one of ours matches (see `TpslFillClaims`). */
  claimFill(fill: FillRecord): FillOwner | undefined {
    const owner = this.claims.claim(fill, this.orders.all());
    if (owner !== undefined) this.venueReadWanted = true;
    return owner;
  }

  /**
   * The watchdog's reading: each protected position without an active TP/SL on the venue for each
   * configured leg (an emulated one does not count: it dies with the process), and since when.
   * `graceMs` later it is unprotected; before, it is being protected.
   */
  unprotected(graceMs: number): UnprotectedPosition[] {
    const now = this.o.clock.now();
    const out: UnprotectedPosition[] = [];
    for (const p of this.o.protections) {
      const key = `${p.strategy}/${p.marketId}`;
      const position = this.o.position(p.marketId);
      const legs = (p.spec.stopLossBps === undefined ? 0 : 1) + (p.spec.takeProfitBps === undefined ? 0 : 1);
      const held = new Set(
        this.orders
          .all()
          .filter((o) => o.strategy === p.strategy && o.marketId === p.marketId && isVenueProtecting(o.state))
          .map((o) => o.role),
      );
      if (position === undefined || held.size >= legs) {
        this.bareSince.delete(key);
        continue;
      }
      const since = this.bareSince.get(key) ?? now;
      this.bareSince.set(key, since);
      if (now - since >= graceMs)
        out.push({
          strategy: p.strategy,
          marketId: p.marketId,
          sinceMs: since,
          emulated: this.venueRefusal !== undefined,
        });
    }
    return out;
  }

  /** Stops the passes; `cancel` also cancels every live TP/SL of ours (`keep` leaves them protecting). */
  async stop(mode: 'keep' | 'cancel', why = 'shutdown'): Promise<void> {
    this.stopped = true;
    await this.running;
    if (mode === 'keep') return;
    for (const order of this.orders.all().filter((o) => isLiveTpsl(o.state))) await this.cancel(order, why);
  }

  /** Passes again after `stop` (the kill switch was reset). */
  resume(): void {
    this.stopped = false;
    this.venueReadWanted = true;
  }

  get halted(): boolean {
    return this.stopped;
  }

  private async pass(): Promise<void> {
    if (this.stopped) return;
    const now = this.o.clock.now();
    const due = this.lastVenueReadMs === undefined || now - this.lastVenueReadMs >= (this.o.venueReadEveryMs ?? 2000);
    if (this.venueReadWanted || due) await this.readVenue();
    for (const protection of this.o.protections) await this.keep(protection);
    this.orders.prune(now);
  }

  private async readVenue(): Promise<void> {
    this.venueReadWanted = false;
    const records = await this.o.venue.listAll();
    this.lastVenueReadMs = this.o.clock.now();
    const outcome = applyVenueList(this.orders, records, this.markets, this.o.clock.now());
    for (const fired of outcome.fired) {
      this.holdAfterFire(fired.strategy, fired.marketId);
      this.o.log.warn(
        { tpsl: fired.id, strategy: fired.strategy, market: fired.marketId, role: fired.role, state: fired.state },
        `${fired.role === 'stop_loss' ? 'stop-loss' : 'take-profit'} ${fired.state} on the venue`,
      );
      for (const sibling of this.orders.live(fired.strategy, fired.marketId))
        if (sibling.role !== fired.role && sibling.state !== 'triggered') await this.cancel(sibling, 'its pair fired');
    }
    for (const stray of outcome.strays) await this.cancelStray(stray);
    for (const record of outcome.foreign) this.noteForeign(record);
  }

  /** One protected market: each role's leg as the position needs it now. */
  private async keep(protection: ProtectedMarket): Promise<void> {
    const step = this.o.stepPrice(protection.marketId);
    if (step === undefined) return;
    const legs = wantedLegs(this.o.position(protection.marketId), protection.spec, step);
    for (const role of ['stop_loss', 'take_profit'] as const) {
      const live = this.orders.live(protection.strategy, protection.marketId, role);
      await this.keepLeg(
        protection,
        role,
        legs.find((l) => l.role === role),
        live,
      );
    }
  }

  private async keepLeg(
    protection: ProtectedMarket,
    role: TpslRole,
    wanted: WantedLeg | undefined,
    live: readonly TpslOrder[],
  ): Promise<void> {
    // Firing or executing on the venue: what it leaves is judged on the next pass.
    if (live.some((o) => o.state === 'triggered')) return;
    if (wanted !== undefined)
      for (const order of live) if (order.state === 'emulated' && (await this.fireIfReached(protection, order))) return;
    if (this.closing(protection)) return;
    const current = this.orders.live(protection.strategy, protection.marketId, role);
    const same = wanted === undefined ? undefined : current.find((o) => matches(o, wanted));
    const kept = wanted !== undefined && same === undefined ? await this.place(protection, wanted) : same;
    // A placement without a definite answer may rest on the venue: the old leg stays until the list says.
    if (kept?.state === 'placing') return;
    for (const order of current)
      if (order !== kept && order.state !== 'cancelling')
        await this.cancel(order, wanted === undefined ? 'position flat' : 'resized');
  }

  /**
   * After a leg fired (on the venue, or emulated), the position it closes is on its way out: no
   * new leg for it until the position moved from what it was then (the execution's fill reached
   * the positions feed) or 10 s passed.
   */
  private closing(protection: ProtectedMarket): boolean {
    const key = `${protection.strategy}/${protection.marketId}`;
    const held = this.closingSince.get(key);
    if (held === undefined) return false;
    const size = this.o.position(protection.marketId)?.size;
    if (size !== undefined && size === held.size && this.o.clock.now() - held.sinceMs < 10_000) return true;
    this.closingSince.delete(key);
    return false;
  }

  private holdAfterFire(strategy: string, marketId: number): void {
    const size = this.o.position(marketId)?.size;
    if (size !== undefined) this.closingSince.set(`${strategy}/${marketId}`, { sinceMs: this.o.clock.now(), size });
  }

  private async place(protection: ProtectedMarket, leg: WantedLeg): Promise<TpslOrder> {
    const now = this.o.clock.now();
    const order = this.orders.add({
      id: `tpsl-${now.toString(36)}-${(this.seq++).toString(36)}`,
      strategy: protection.strategy,
      marketId: protection.marketId,
      role: leg.role,
      side: leg.side,
      size: leg.size,
      stopPrice: leg.stopPrice,
      trigger: protection.spec.trigger,
      state: 'placing',
      filledSize: '0',
      createdMs: now,
      updatedMs: now,
    });
    if (this.venueRefusal !== undefined) return this.emulate(order, this.venueRefusal);
    try {
      const answer = await this.o.venue.place({
        marketId: order.marketId,
        side: order.side,
        size: order.size,
        stopType: stopTypeOf(order.role),
        stopPrice: order.stopPrice,
        stopPriceOption: STOP_PRICE_OPTION[order.trigger],
      });
      this.logPlaced(order);
      return this.orders.apply(order.id, { type: 'placed', venueId: answer.order_id }, this.o.clock.now()) ?? order;
    } catch (error) {
      return this.placeFailed(order, error);
    }
  }

  private placeFailed(order: TpslOrder, error: unknown): TpslOrder {
    if (!isDefiniteRefusal(error)) {
      // No definite answer: the next read of the list adopts it, or ends it as never placed.
      this.venueReadWanted = true;
      this.o.log.warn(
        { err: error, tpsl: order.id },
        'TP/SL placement without a definite answer; the venue list decides',
      );
      return order;
    }
    this.venueRefusal = `the venue refused a TP/SL order: ${error.reason}`;
    return this.emulate(order, this.venueRefusal);
  }

  private emulate(order: TpslOrder, reason: string): TpslOrder {
    this.o.log.error(
      {
        tpsl: order.id,
        strategy: order.strategy,
        market: order.marketId,
        role: order.role,
        stopPrice: order.stopPrice,
        reason,
      },
      'TP/SL EMULATED: the venue refuses TP/SL orders, so this stop is watched by this process only and does NOT outlive it; the position counts as unprotected',
    );
    return this.orders.apply(order.id, { type: 'emulate', reason }, this.o.clock.now()) ?? order;
  }

  /** Whether the emulated stop fired now (its close sent, its pair cancelled). */
  private async fireIfReached(protection: ProtectedMarket, order: TpslOrder): Promise<boolean> {
    const price = this.o.watchedPrice(order.marketId, order.trigger);
    if (price === undefined || !emulatedStopFires(order, price)) return false;
    const fired = this.orders.apply(order.id, { type: 'emulated_fired', price }, this.o.clock.now());
    this.o.log.warn(
      { tpsl: order.id, price, stopPrice: order.stopPrice },
      `emulated ${order.role} fired: closing the position`,
    );
    this.holdAfterFire(protection.strategy, protection.marketId);
    if (fired !== undefined) await this.o.closePosition(protection, fired);
    for (const sibling of this.orders.live(order.strategy, order.marketId))
      if (sibling.role !== order.role) await this.cancel(sibling, 'its pair fired');
    return true;
  }

  private async cancel(order: TpslOrder, why: string): Promise<void> {
    const atMs = this.o.clock.now();
    if (order.state === 'placing' || order.state === 'emulated' || order.venueId === undefined) {
      this.orders.apply(order.id, { type: 'cancel_sent' }, atMs);
      return;
    }
    if (order.state !== 'accepted') return;
    this.orders.apply(order.id, { type: 'cancel_sent' }, atMs);
    try {
      await this.o.venue.cancel(order.venueId);
      this.o.log.info({ tpsl: order.id, venueId: order.venueId, why }, 'TP/SL cancel sent');
    } catch (error) {
      this.o.log.warn({ err: error, tpsl: order.id, why }, 'TP/SL cancel failed; the venue list decides');
    }
    this.venueReadWanted = true;
  }

  private async cancelStray(record: TpslOrderRecord): Promise<void> {
    this.o.log.warn(
      { venueId: record.order_id },
      'a TP/SL of ours the engine had ended is still on the venue: cancelling it',
    );
    await this.o.venue
      .cancel(record.order_id)
      .catch((err: unknown) => this.o.log.warn({ err }, 'stray TP/SL cancel failed'));
  }

  private noteForeign(record: TpslOrderRecord): void {
    if (this.foreignSeen.has(record.order_id)) return;
    this.foreignSeen.add(record.order_id);
    this.o.log.warn(
      { venueId: record.order_id, market: record.market_id, stopType: record.stop_type, size: record.size },
      'a TP/SL on the venue that this bot did not place: left alone',
    );
  }

  private logPlaced(order: TpslOrder): void {
    this.o.log.info(
      {
        tpsl: order.id,
        strategy: order.strategy,
        market: order.marketId,
        role: order.role,
        size: order.size,
        stopPrice: order.stopPrice,
      },
      'TP/SL placed',
    );
  }
}

function matches(order: TpslOrder, leg: WantedLeg): boolean {
  return (
    order.side === leg.side &&
    compareDecimals(order.size, leg.size) === 0 &&
    compareDecimals(order.stopPrice, leg.stopPrice) === 0
  );
}

/** A definite refusal (a 4xx other than a rate limit): the venue will not hold this order. */
function isDefiniteRefusal(error: unknown): error is VenueError {
  return error instanceof VenueError && error.httpStatus >= 400 && error.httpStatus < 500 && error.httpStatus !== 429;
}
