import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Engine } from '../../engine/engine.js';
import type { ProtectionKeeper } from '../../engine/protection/protectionKeeper.js';
import { ProtectionPasses } from './protectionPasses.js';
import { tpslVenueClient } from '../../engine/protection/tpslVenueClient.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import type { Config } from '../config/configSchema.js';
import type { Journal } from '../../journal/journal.js';
import { TpslJournal } from './tpslJournal.js';
import { budgetWarning, latestOperatorAllowance, spentSinceWei } from './operatorAllowance.js';
import type { ProtectionStatus } from '../operations/control/botStatus.js';
import { isLiveTpsl } from '../../engine/orders/tpslState.js';

export interface BotProtectionOptions {
  readonly config: Config;
  readonly engine: Engine;
  readonly rest: RestClient;
  readonly account: Address;
  readonly signer: SignerLike & { readonly address: Address };
  /** The venue's signing domain, known once the engine started. */
  readonly context: () => SigningContext;
  readonly journal: Journal;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * The running bot's protection: the strategies' protections (their `protection:` blocks, and what
 * they ask at run time with `protect` and `bracket` intents: `engine.protections`) kept as the
 * venue's TP/SL orders by a `ProtectionKeeper` (src/engine/protection), journaled in
 * `tpsl_orders`, the fills of their executions owned by the protected strategy, passes every
 * 200 ms, on every fill, on every change of a protection and after every reconnect. Every bot has
 * one (any strategy may ask for protection); it idles, reading nothing, while nothing is protected.
 */
export class BotProtection {
  private readonly passes: ProtectionPasses;
  private readonly restoredCount: number;

  constructor(private readonly o: BotProtectionOptions) {
    const store = new TpslJournal(o.journal.db, o.account);
    const restored = store.live();
    this.restoredCount = restored.length;
    this.passes = new ProtectionPasses({
      config: o.config,
      engine: o.engine,
      venue: tpslVenueClient(o),
      store,
      restored,
      clock: o.clock,
      log: o.log,
    });
  }

  get keeper(): ProtectionKeeper {
    return this.passes.keeper;
  }

  /** Starts the passes (after the engine started and reconciled); the first one reads the venue's list. */
  start(signal: AbortSignal): void {
    if (this.keeper.protections.length === 0 && this.restoredCount > 0)
      this.o.log.warn(
        {},
        'TP/SL orders of a previous run are journaled but no strategy has protection: they are only followed',
      );
    this.passes.start(signal);
  }

  /**
   * The status's view: each protected position (unprotected past `protection.grace_ms`?), the live
   * TP/SL orders; null while no strategy was ever protected and no TP/SL order is known.
   */
  status(): ProtectionStatus | null {
    if (!this.inUse) return null;
    const unprotected = this.keeper.unprotected(this.o.config.protection.grace_ms);
    const db = this.o.journal.db;
    const allowance = latestOperatorAllowance(db, this.o.account);
    const spent = allowance === undefined ? 0n : spentSinceWei(db, this.o.account, allowance.atMs);
    return {
      venueRefusal: this.keeper.refusal ?? null,
      budgetWarning: budgetWarning(allowance, spent, this.keeper.orders.all(), this.o.clock.now()) ?? null,
      positions: this.keeper.protections.map((p) => {
        const bare = unprotected.find((u) => u.strategy === p.strategy && u.marketId === p.marketId);
        return {
          strategy: p.strategy,
          marketId: p.marketId,
          unprotected: bare !== undefined,
          unprotectedSinceMs: bare?.sinceMs ?? null,
          emulated: this.keeper.refusal !== undefined,
        };
      }),
      orders: this.keeper.orders
        .all()
        .filter((o) => isLiveTpsl(o.state) || o.state === 'cancelling')
        .map((o) => ({
          id: o.id,
          venueId: o.venueId ?? null,
          strategy: o.strategy,
          marketId: o.marketId,
          role: o.role,
          side: o.side,
          size: o.size,
          stopPrice: o.stopPrice,
          trigger: o.trigger,
          state: o.state,
        })),
    };
  }

  /** A strategy is or was protected in this run, or a TP/SL order is known. */
  private get inUse(): boolean {
    return (
      this.keeper.protections.length > 0 || this.o.engine.protections.anyAsked || this.keeper.orders.all().length > 0
    );
  }

  /** At exit, after the strategies and the engine stopped: keep the TP/SL orders on the venue, or cancel them. */
  async stop(mode: 'keep' | 'cancel'): Promise<void> {
    await this.passes.stop(mode);
    if (!this.inUse) return;
    this.o.log.info(
      { mode, live: this.keeper.orders.all().filter((o) => o.state === 'accepted' || o.state === 'triggered').length },
      mode === 'keep'
        ? 'TP/SL orders kept on the venue: they protect the positions while the bot is stopped'
        : 'TP/SL orders cancelled',
    );
  }
}
