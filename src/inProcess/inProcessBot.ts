import type { Subscription } from 'rxjs';
import type { Address } from '../core/address.js';
import { PerpbotError } from '../core/perpbotError.js';
import { Engine } from '../engine/engine.js';
import type { TpslVenue } from '../engine/protection/tpslLegActions.js';
import { withEngineDefaults } from '../engine/config/engineConfig.js';
import { venueSender } from '../engine/sending/actionSender.js';
import type { SyncDigestSigner } from '../protocol/digestSigner.js';
import { fastPrivateKeySigner } from '../protocol/nativeSigner.js';
import { SPEC_SELECTORS } from '../protocol/selectors.js';
import { approveOperator } from '../engine/account/approveOperator.js';
import { registerSigner } from '../engine/account/registerSigner.js';
import { budgetedExecution, type BudgetedExecution } from '../strategy/wiring/budgetedExecution.js';
import { guardLimitsOf, type RiskLimits } from '../engine/guards/riskLimits.js';
import { stateSnapshot } from '../strategy/wiring/stateSnapshot.js';
import { strategyStreams } from '../strategy/wiring/strategyStreams.js';
import { VenueExtras } from '../strategy/wiring/venueExtras.js';
import type { StrategyStreams } from '../strategy/strategyContext.js';
import type { HostLogger } from '../strategy/strategyHost.js';
import type { StateSnapshot } from '../strategy/strategyViews.js';
import { OrderBookFeed } from '../venue/orderbook/orderBookFeed.js';
import { createRestClient, type RestClient } from '../venue/rest/restClient.js';
import { venueRestLimiter } from '../venue/rest/slidingWindowLimiter.js';
import { readVenueSigning } from '../venue/venueInfo.js';
import { tpslVenueClient } from '../engine/protection/tpslVenueClient.js';
import type { InProcessVenue } from './inProcessVenue.js';
import { SimChannels } from './simChannels.js';
import { simSender } from './simSender.js';
import type { VirtualTime } from './virtualTime.js';

/** Fixed keys: a kit run is deterministic, and no key of the kit's is a secret. */
const KIT_ACCOUNT_KEY = `0x${'11'.repeat(32)}` as const;
const KIT_SIGNER_KEY = `0x${'22'.repeat(32)}` as const;

export interface InProcessBotOptions {
  readonly venue: InProcessVenue;
  readonly time: VirtualTime;
  readonly markets: readonly number[];
  /** The account's limits, as the config's `risk:` block. */
  readonly risk: RiskLimits;
  /** The strategy's effective budget (its own `risk:` block over the account's). */
  readonly budget: RiskLimits;
  /** USDC the account deposits before the engine starts. */
  readonly balance: string;
  /** One-way latency of REST and WebSocket in virtual ms (read on each request, so it can change). */
  readonly latencyMs: () => number;
  readonly log: HostLogger;
  readonly onError: (error: unknown) => void;
  /**
   * The engine's signer for the session key (default: the key itself). A replay passes one that
   * signs nothing, for a simulator that trusts the account's permits (`replaySigner.ts`).
   */
  readonly engineSigner?: (signer: Address) => SyncDigestSigner;
  /**
   * An OperatorHub budget (USD) the account grants before the engine starts, as `perpbot setup`
   * does: what the venue's TP/SL executions spend. None by default.
   */
  readonly operator?: { readonly budget: string; readonly validForSeconds: number };
}

function engineSigner(o: InProcessBotOptions): SyncDigestSigner {
  const key = fastPrivateKeySigner(KIT_SIGNER_KEY);
  return o.engineSigner?.(key.address) ?? key;
}

/**
 * The bot's side of the kit, wired as `runBot` wires it: the real `Engine` (admission, rate limits,
 * pre-trade checks, order tracking, nonces and signing with a registered session key) on a REST
 * client whose requests the simulator answers in-process, its feeds from the simulator's channel
 * frames, each strategy's budget in front of it, and the strategy streams and state views the
 * runtime builds from them.
 */
export class InProcessBot {
  readonly account: Address;
  /** The session key the engine signs with (what a TP/SL client of the account signs with too). */
  readonly sessionSigner: SyncDigestSigner;
  readonly engine: Engine;
  readonly rest: RestClient;
  readonly channels: SimChannels;
  private readonly extras = new VenueExtras();
  private readonly subscriptions: Subscription[] = [];
  private executionValue: BudgetedExecution | undefined;

  constructor(private readonly o: InProcessBotOptions) {
    const accountSigner = fastPrivateKeySigner(KIT_ACCOUNT_KEY);
    this.account = accountSigner.address;
    this.rest = createRestClient({
      baseUrl: 'http://kit.sim.invalid',
      timeoutMs: 10_000,
      direct: simSender({ answer: o.venue.answer, clock: o.time, latencyMs: o.latencyMs }),
      rateLimit: venueRestLimiter(o.time),
      clock: o.time,
    });
    this.sessionSigner = engineSigner(o);
    this.engine = new Engine({
      account: this.account,
      signer: this.sessionSigner,
      rest: this.rest,
      sender: venueSender(this.rest),
      config: withEngineDefaults({ guards: guardLimitsOf(o.risk) }),
      selectors: SPEC_SELECTORS,
      clock: o.time,
      log: o.log.child({ component: 'engine' }),
      markets: o.markets,
    });
    this.channels = new SimChannels({
      runtime: o.venue.runtime,
      account: this.account,
      clock: o.time,
      latencyMs: o.latencyMs,
      onError: o.onError,
    });
  }

  /** Funds the account, registers the session key, starts the engine and attaches its feeds. */
  async start(): Promise<void> {
    const { rest, o } = this;
    await rest.deposit({ account: this.account, amount: o.balance });
    o.venue.controls.registerNow(this.account);
    await registerSigner({
      rest,
      context: (await readVenueSigning(rest)).context,
      account: fastPrivateKeySigner(KIT_ACCOUNT_KEY),
      signer: fastPrivateKeySigner(KIT_SIGNER_KEY),
      clock: o.time,
      message: 'perpbot test kit session key',
    });
    // Before the engine reads the nonce state: the grant spends a nonce pair of the account.
    if (o.operator !== undefined) await this.grantOperator(o.operator.budget, o.operator.validForSeconds);
    await this.engine.start();
    // Before the engine's: a fill's venue time is known when the engine's fill event is built.
    this.subscriptions.push(this.extras.follow(this.channels));
    const { channels } = this;
    this.engine.attach({
      orders: channels.channel('orders'),
      positions: channels.channel('positions'),
      fills: channels.channel('fills'),
      account: channels.channel('account'),
      oracle: channels.channel('oracle', { marketIds: o.markets }),
      connection: channels.connection$,
    });
  }

  /** The account's TP/SL calls on the simulator, signed by the session key (once started). */
  tpslVenue(): TpslVenue {
    return tpslVenueClient({
      rest: this.rest,
      account: this.account,
      signer: fastPrivateKeySigner(KIT_SIGNER_KEY),
      context: () => {
        const context = this.engine.signingContext;
        if (context === undefined)
          throw new PerpbotError('a TP/SL call before the kit bot started', {
            code: 'ENGINE_NOT_STARTED',
            hints: ['start the kit first (strategyTest(...) starts it)'],
          });
        return context;
      },
      clock: this.o.time,
    });
  }

  /** Approve-single, signed by the account key: the OperatorHub may spend `budget` USD for `validForSeconds`. */
  private async grantOperator(budget: string, validForSeconds: number): Promise<void> {
    const { context, operatorHub } = await readVenueSigning(this.rest);
    if (operatorHub === undefined)
      throw new PerpbotError('the simulator publishes no operator_hub address: the OperatorHub cannot be granted', {
        code: 'INVALID_VALUE',
        hints: ['run without `operator` (no TP/SL executes), or a simulator whose system config names it'],
      });
    await approveOperator({
      rest: this.rest,
      context,
      account: fastPrivateKeySigner(KIT_ACCOUNT_KEY),
      operator: operatorHub,
      budget,
      validForSeconds,
      clock: this.o.time,
    });
  }

  /** What the kit's one strategy submits through: its budget, then the engine (built once, for the first name). */
  execution(strategy: string): BudgetedExecution {
    this.executionValue ??= budgetedExecution({
      engine: this.engine,
      budgets: new Map([[strategy, this.o.budget]]),
      clock: this.o.time,
    });
    return this.executionValue;
  }

  /** The streams a strategy reads, built as the runtime builds them. */
  streams(): StrategyStreams {
    const books = new OrderBookFeed(this.channels);
    return strategyStreams(this.channels, books, this.engine, { venue: this.extras, clock: this.o.time });
  }

  state(): StateSnapshot {
    return stateSnapshot(this.engine, this.extras);
  }

  async stop(): Promise<void> {
    this.executionValue?.close();
    await this.engine.stop();
    for (const s of this.subscriptions) s.unsubscribe();
    this.channels.close();
  }
}
