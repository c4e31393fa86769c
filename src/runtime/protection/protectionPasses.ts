import { Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { detach } from '../../core/detach.js';
import type { Logger } from '../../core/logger.js';
import type { Engine } from '../../engine/engine.js';
import type { TpslOrder } from '../../engine/orders/tpslOrder.js';
import type { ProtectedMarket, ProtectionKeeper, TpslVenue } from '../../engine/protection/protectionKeeper.js';
import type { TpslStore } from '../../engine/protection/tpslOrders.js';
import type { Config } from '../config/configSchema.js';
import { tickEvery } from '../../core/tickEvery.js';
import { engineKeeper, passOnEngineEvents } from '../../engine/engineKeeper.js';

export interface ProtectionPassesOptions {
  readonly config: Config;
  readonly engine: Engine;
  readonly venue: TpslVenue;
  readonly store: TpslStore;
  /** Live TP/SL orders a previous run left (the journal's); none for a replay. */
  readonly restored: readonly TpslOrder[];
  readonly clock: Clock;
  readonly log: Logger;
}

/** How often the keeper compares the positions with their TP/SL orders (in memory; the venue is read less often). */
const PASS_EVERY_MS = 200;

/**
 * The strategies' protections (their `protection:` blocks, and what they ask at run time:
 * `engine.protections`) kept as the venue's TP/SL orders by the engine's keeper (`engineKeeper`):
 * passes every 200 ms on the given clock, on every fill, every change of a protection and after
 * every reconnect, and the kill switch's choice (`protection.on_kill_switch`). The live bot
 * (`BotProtection`, with its journal) and a replay (on virtual time) run the same passes.
 */
export class ProtectionPasses {
  readonly keeper: ProtectionKeeper;
  private readonly subscriptions = new Subscription();
  private stopping = false;

  constructor(private readonly o: ProtectionPassesOptions) {
    const { engine, config } = o;
    engine.protections.configure(protectedMarkets(config), tradersOf(config));
    this.keeper = engineKeeper({
      engine,
      venue: o.venue,
      store: o.store,
      restored: o.restored,
      clock: o.clock,
      log: o.log,
      venueReadEveryMs: config.protection.venue_read_ms,
    });
  }

  /** Starts the passes (after the engine started and reconciled); the first one reads the venue's list. */
  start(signal: AbortSignal): void {
    const { engine, log, clock } = this.o;
    this.subscriptions.add(passOnEngineEvents(this.keeper, engine));
    detach(this.keeper.sync(true), (err) => log.warn({ err }, 'the first protection pass failed; trying again'));
    detach(
      tickEvery(
        clock,
        PASS_EVERY_MS,
        signal,
        () => this.tick(),
        (err) => log.warn({ err }, 'protection pass failed'),
      ),
      (err) => log.warn({ err }, 'protection passes ended'),
    );
  }

  /** One tick: the kill switch's choice (`protection.on_kill_switch`), then a pass. */
  private tick(): void {
    const { engine, config, log } = this.o;
    const tripped = engine.killSwitch.tripped && config.protection.on_kill_switch === 'cancel';
    if (tripped && !this.keeper.halted) {
      log.warn({}, 'kill switch tripped: cancelling the TP/SL orders (protection.on_kill_switch: cancel)');
      detach(this.keeper.stop('cancel', 'kill switch'), (err) =>
        log.warn({ err }, 'TP/SL cancel on the kill switch failed'),
      );
      return;
    }
    if (!tripped && this.keeper.halted && !this.stopping) this.keeper.resume();
    detach(this.keeper.sync(), () => undefined);
  }

  /** Stops the passes; `keep` leaves the TP/SL orders on the venue, `cancel` cancels them. */
  async stop(mode: 'keep' | 'cancel'): Promise<void> {
    this.stopping = true;
    this.subscriptions.unsubscribe();
    await this.keeper.stop(mode);
  }
}

/** Each market of each strategy with `protection:`, as the keeper protects it. */
export function protectedMarkets(config: Config): ProtectedMarket[] {
  return config.strategies.flatMap((s) =>
    s.protection === undefined
      ? []
      : s.markets.map((marketId) => ({
          strategy: s.name,
          marketId,
          spec: {
            stopLossBps: s.protection?.stop_loss_bps,
            takeProfitBps: s.protection?.take_profit_bps,
            trigger: s.protection?.trigger ?? 'mark',
          },
        })),
  );
}

/** Which strategies trade each market: a strategy protects only a market it trades alone. */
function tradersOf(config: Config): Map<number, string[]> {
  const traders = new Map<number, string[]>();
  for (const s of config.strategies) for (const m of s.markets) traders.set(m, [...(traders.get(m) ?? []), s.name]);
  return traders;
}
