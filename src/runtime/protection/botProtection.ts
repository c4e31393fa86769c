import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Engine } from '../../engine/engine.js';
import type { ProtectionKeeper } from '../../engine/protection/protectionKeeper.js';
import type { SignerLike } from '../../protocol/digestSigner.js';
import type { SigningContext } from '../../protocol/signingContext.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import type { Config } from '../config/configSchema.js';
import type { Journal } from '../journal/journal.js';
import { TpslJournal } from './tpslJournal.js';
import { budgetWarning, latestOperatorAllowance, spentSinceWei } from './operatorAllowance.js';
import type { ProtectionStatus } from '../operations/control/botStatus.js';
import { isLiveTpsl } from '../../engine/orders/tpslState.js';
import { ProtectionPasses, protectedMarkets } from './protectionPasses.js';
import { tpslVenueClient } from './tpslVenueClient.js';

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
 * The running bot's protection: the strategies' `protection:` blocks kept as the venue's TP/SL
 * orders by the keeper's passes (`ProtectionPasses`), journaled in `tpsl_orders`, and the status's
 * view of them with the OperatorHub budget. Undefined when no strategy is protected and the
 * journal holds no live TP/SL order.
 */
export class BotProtection {
  private readonly passes: ProtectionPasses;

  static create(o: BotProtectionOptions): BotProtection | undefined {
    const store = new TpslJournal(o.journal.db, o.account);
    if (protectedMarkets(o.config).length === 0 && store.live().length === 0) return undefined;
    return new BotProtection(o, store);
  }

  private constructor(
    private readonly o: BotProtectionOptions,
    store: TpslJournal,
  ) {
    this.passes = new ProtectionPasses({
      config: o.config,
      engine: o.engine,
      venue: tpslVenueClient(o),
      store,
      restored: store.live(),
      clock: o.clock,
      log: o.log,
    });
  }

  get keeper(): ProtectionKeeper {
    return this.passes.keeper;
  }

  /** Starts the passes (after the engine started and reconciled); the first one reads the venue's list. */
  start(signal: AbortSignal): void {
    if (this.keeper.protections.length === 0)
      this.o.log.warn(
        {},
        'TP/SL orders of a previous run are journaled but no strategy has protection: they are only followed',
      );
    this.passes.start(signal);
  }

  /** The status's view: each protected position (unprotected past `protection.grace_ms`?), the live TP/SL orders. */
  status(): ProtectionStatus {
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

  /** At exit, after the strategies and the engine stopped: keep the TP/SL orders on the venue, or cancel them. */
  async stop(mode: 'keep' | 'cancel'): Promise<void> {
    await this.passes.stop(mode);
    this.o.log.info(
      { mode, live: this.keeper.orders.all().filter((o) => o.state === 'accepted' || o.state === 'triggered').length },
      mode === 'keep'
        ? 'TP/SL orders kept on the venue: they protect the positions while the bot is stopped'
        : 'TP/SL orders cancelled',
    );
  }
}
