import type { Clock } from '../../core/clock.js';
import { compareDecimals } from '../../core/decimal.js';
import type { Logger } from '../../core/logger.js';
import type { FillRecord } from '../../venue/schemas/wsFramesPrivate.js';
import type { TpslOrder, TpslRole, TpslTrigger } from '../orders/tpslOrder.js';
import { isLiveTpsl } from '../orders/tpslState.js';
import { ClosingPositions } from './closingPositions.js';
import { emulatedStopFires } from './emulatedTrigger.js';
import type { ProtectedMarket } from './protectedMarket.js';
import { wantedLegs, type ProtectedPosition, type WantedLeg } from './protectionLegs.js';
import { ProtectionWatchdog, type UnprotectedPosition } from './protectionWatchdog.js';
import { TpslFillClaims, type FillOwner } from './tpslFillClaims.js';
import { TpslLegActions, type TpslVenue } from './tpslLegActions.js';
import { TpslOrders, type TpslStore } from './tpslOrders.js';
import { applyVenueList, listSinceMs } from './tpslVenueList.js';

export type { ProtectedMarket } from './protectedMarket.js';
export type { UnprotectedPosition } from './protectionWatchdog.js';
export type { TpslVenue } from './tpslLegActions.js';

export interface ProtectionKeeperOptions {
  readonly venue: TpslVenue;
  readonly store: TpslStore;
  /** Live TP/SL orders a previous run journaled. */
  readonly restored: readonly TpslOrder[];
  /** The protections in force now (the config's and what strategies asked: `StrategyProtections`), read every pass. */
  protections(): readonly ProtectedMarket[];
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
  /** The protections of the last pass, by `strategy/market`: one no longer in force has its legs cancelled. */
  private readonly kept = new Map<string, ProtectedMarket>();
  private readonly legs: TpslLegActions;
  private readonly watchdog: ProtectionWatchdog;
  private readonly closingAfterFire: ClosingPositions;
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  private lastVenueReadMs: number | undefined;
  private venueReadWanted = true;
  private stopped = false;

  constructor(private readonly o: ProtectionKeeperOptions) {
    this.orders = new TpslOrders(o.store, (refusal, order) =>
      o.log.warn({ tpsl: order.id, ...refusal }, `TP/SL change refused: ${refusal.reason}`),
    );
    this.orders.restore(o.restored);
    this.legs = new TpslLegActions({
      venue: o.venue,
      orders: this.orders,
      clock: o.clock,
      log: o.log,
      wantVenueRead: () => {
        this.venueReadWanted = true;
      },
    });
    this.watchdog = new ProtectionWatchdog({ ...o, orders: this.orders });
    this.closingAfterFire = new ClosingPositions((marketId) => o.position(marketId), o.clock);
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
    return this.legs.refusal;
  }

  get protections(): readonly ProtectedMarket[] {
    return this.o.protections();
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
    return this.watchdog.unprotected(graceMs, this.legs.refusal !== undefined);
  }

  /** Stops the passes; `cancel` also cancels every live TP/SL of ours (`keep` leaves them protecting). */
  async stop(mode: 'keep' | 'cancel', why = 'shutdown'): Promise<void> {
    this.stopped = true;
    await this.running;
    if (mode === 'keep') return;
    for (const order of this.orders.all().filter((o) => isLiveTpsl(o.state))) await this.legs.cancel(order, why);
  }

  /** One read of the venue's list after `stop`: what became of the last cancels (a replay's report ends on it). */
  async readVenueOnce(): Promise<void> {
    await this.running;
    await this.readVenue(this.o.protections());
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
    const protections = this.o.protections();
    if (this.stopped || this.idle(protections)) return;
    const now = this.o.clock.now();
    const due = this.lastVenueReadMs === undefined || now - this.lastVenueReadMs >= (this.o.venueReadEveryMs ?? 2000);
    if (this.venueReadWanted || due) await this.readVenue(protections);
    for (const protection of protections) await this.keep(protection);
    await this.release(protections);
    this.orders.prune(now);
  }

  /** Nothing protected, nothing to end and no order to follow: no pass, and no read of the venue's list. */
  private idle(protections: readonly ProtectedMarket[]): boolean {
    return (
      protections.length === 0 &&
      this.kept.size === 0 &&
      !this.orders.all().some((o) => isLiveTpsl(o.state) || o.state === 'cancelling')
    );
  }

  /**
   * Cancels the legs of a protection no longer in force (its strategy turned it off). Only one
   * this run kept: a leg a previous run left for a protection not (yet) asked again is followed,
   * not cancelled, so the position stays protected while its strategy starts.
   */
  private async release(protections: readonly ProtectedMarket[]): Promise<void> {
    const now = new Set(protections.map((p) => keyOf(p.strategy, p.marketId)));
    for (const [key, protection] of this.kept) {
      if (now.has(key)) continue;
      const live = this.orders.live(protection.strategy, protection.marketId);
      for (const order of live) if (order.state !== 'triggered') await this.legs.cancel(order, 'protection off');
      if (live.length === 0) this.kept.delete(key);
    }
    for (const p of protections) this.kept.set(keyOf(p.strategy, p.marketId), p);
  }

  private async readVenue(protections: readonly ProtectedMarket[]): Promise<void> {
    this.venueReadWanted = false;
    const records = await this.o.venue.listAll(listSinceMs(this.orders.all(), this.o.clock.now()));
    this.lastVenueReadMs = this.o.clock.now();
    // The protected markets, and those of every order of ours (a previous run's, or one being ended).
    const markets = new Set([...protections.map((p) => p.marketId), ...this.orders.all().map((o) => o.marketId)]);
    const outcome = applyVenueList(this.orders, records, markets, this.o.clock.now());
    for (const fired of outcome.fired) {
      this.closingAfterFire.hold(fired.strategy, fired.marketId);
      this.o.log.warn(
        { tpsl: fired.id, strategy: fired.strategy, market: fired.marketId, role: fired.role, state: fired.state },
        `${fired.role === 'stop_loss' ? 'stop-loss' : 'take-profit'} ${fired.state} on the venue`,
      );
      for (const sibling of this.orders.live(fired.strategy, fired.marketId))
        if (sibling.role !== fired.role && sibling.state !== 'triggered')
          await this.legs.cancel(sibling, 'its pair fired');
    }
    await this.legs.resendCancels(records);
    for (const stray of outcome.strays) await this.legs.cancelStray(stray);
    for (const record of outcome.foreign) this.legs.noteForeign(record);
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
    if (this.closingAfterFire.closing(protection.strategy, protection.marketId)) return;
    const current = this.orders.live(protection.strategy, protection.marketId, role);
    const trigger = protection.spec.trigger;
    // An emulated leg is kept while the venue's refusal stands; after it, the venue is asked again.
    const venueAsked = this.legs.refusal === undefined;
    const same =
      wanted === undefined
        ? undefined
        : current.find((o) => matches(o, wanted, trigger) && !(venueAsked && o.state === 'emulated'));
    const kept = wanted !== undefined && same === undefined ? await this.legs.place(protection, wanted) : same;
    // A placement without a definite answer may rest on the venue: the old leg stays until the list says.
    if (kept?.state === 'placing') return;
    for (const order of current)
      if (order !== kept && order.state !== 'cancelling')
        await this.legs.cancel(order, wanted === undefined ? 'position flat' : 'resized');
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
    this.closingAfterFire.hold(protection.strategy, protection.marketId);
    if (fired !== undefined) await this.o.closePosition(protection, fired);
    for (const sibling of this.orders.live(order.strategy, order.marketId))
      if (sibling.role !== order.role) await this.legs.cancel(sibling, 'its pair fired');
    return true;
  }
}

function keyOf(strategy: string, marketId: number): string {
  return `${strategy}/${marketId}`;
}

function matches(order: TpslOrder, leg: WantedLeg, trigger: TpslTrigger): boolean {
  return (
    order.trigger === trigger &&
    order.side === leg.side &&
    compareDecimals(order.size, leg.size) === 0 &&
    compareDecimals(order.stopPrice, leg.stopPrice) === 0
  );
}
