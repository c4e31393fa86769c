import type { Clock } from '../../core/clock.js';
import { detach } from '../../core/detach.js';
import { PerpbotError } from '../../core/perpbotError.js';
import type { HostLogger } from '../../strategy/strategyHost.js';
import type { Config } from '../config/configSchema.js';
import type { InProcessBot } from '../../inProcess/inProcessBot.js';
import type { InProcessVenue } from '../../inProcess/inProcessVenue.js';
import { ProtectionPasses, protectedMarkets } from '../protection/protectionPasses.js';
import { tpslVenueClient } from '../../engine/protection/tpslVenueClient.js';
import { ReplayStopsTape } from './replayStopsTape.js';

/**
 * The OperatorHub budget the replayed account of a protected strategy grants before its engine
 * starts (USD, for a year), as `perpbot setup` would: large enough that no replay spends it, so
 * an execution is never refused for budget (docs/spec-gaps/simulator.md, "TP/SL in a replay").
 */
export const REPLAY_OPERATOR_GRANT = { budget: '1000000000', validForSeconds: 366 * 86_400 } as const;
/** How often the replay's venue judges its TP/SL orders between the recorded oracle frames. */
const TPSL_WATCH_EVERY_MS = 100;

/**
 * A replay's `protection:`: the live bot's keeper passes (`ProtectionPasses`) on the replay's
 * engine and virtual time, their TP/SL orders placed on the replay's simulator (which triggers
 * them on the recorded mark or trades and executes them as the account's reduce-only orders),
 * nothing journaled (a replay starts from nothing and keeps nothing), and the stops tape the
 * report's `stops` come from. Undefined when no strategy has `protection:`.
 */
export class ReplayProtection {
  readonly stops: ReplayStopsTape;
  private readonly passes: ProtectionPasses;
  private readonly running = new AbortController();

  static create(config: Config, bot: InProcessBot, clock: Clock, log: HostLogger): ReplayProtection | undefined {
    const strategies = new Set(protectedMarkets(config).map((p) => p.strategy));
    return strategies.size === 0 ? undefined : new ReplayProtection(config, bot, clock, log, strategies);
  }

  private constructor(
    config: Config,
    bot: InProcessBot,
    clock: Clock,
    private readonly log: HostLogger,
    strategies: ReadonlySet<string>,
  ) {
    const { engine } = bot;
    this.passes = new ProtectionPasses({
      config,
      engine,
      venue: tpslVenueClient({
        rest: bot.rest,
        account: bot.account,
        signer: bot.sessionSigner,
        context: () => {
          const context = engine.signingContext;
          if (context === undefined)
            throw new PerpbotError('the replay placed a TP/SL before its engine started', {
              code: 'ENGINE_NOT_STARTED',
            });
          return context;
        },
        clock,
      }),
      store: { write: () => undefined },
      restored: [],
      clock,
      log: log.child({ component: 'protection' }),
    });
    this.stops = new ReplayStopsTape(
      {
        changes$: this.passes.keeper.orders.changes$,
        fills$: engine.fills$,
        realisedPnl: (strategy) => engine.ledger.strategyPnl(strategy).realisedPnl,
      },
      strategies,
      clock,
    );
  }

  /** After the bot started (and granted `REPLAY_OPERATOR_GRANT`), before the strategies: passes and the watch. */
  start(venue: InProcessVenue): void {
    this.passes.start(this.running.signal);
    detach(venue.watchTpsl(TPSL_WATCH_EVERY_MS, this.running.signal), (err) =>
      this.log.warn({ err }, 'the replay venue stopped judging TP/SL orders'),
    );
  }

  /** After the strategies stopped: the orders kept or cancelled (`shutdown.protection`), then the record closed. */
  async stop(mode: 'keep' | 'cancel'): Promise<void> {
    try {
      await this.passes.stop(mode);
      // The venue's answer to the shutdown's cancels, so the report ends on it (a live bot reads it at its next start).
      if (mode === 'cancel') await this.passes.keeper.readVenueOnce();
    } finally {
      this.running.abort();
      this.stops.close();
    }
  }
}
