import { Subject, type Observable } from 'rxjs';
import { parseAddress, type Address } from '../core/address.js';
import { unixSeconds, type Clock } from '../core/clock.js';
import { parseDomain } from '../protocol/domain.js';
import { RISE_SELECTORS, type SelectorTable } from '../protocol/selectors.js';
import { createSigningContext, type SigningContext } from '../protocol/signingContext.js';
import type { Eip712DomainWire } from '../venue/schemas/restAuth.js';
import type { SystemConfigWire } from '../venue/schemas/restSystem.js';
import { SimChainState } from './chain/simChainState.js';
import { seededAddress } from './chain/txHashes.js';
import { Exchange, type ExchangeOptions } from './exchange/exchange.js';
import { MarketTrades } from './exchange/marketTrades.js';
import { COUNTING_FROM_ONE } from './exchange/simIdBases.js';
import { randomIdBases } from './randomIdBases.js';
import type { ExchangeEvent } from './exchange/exchangeEvents.js';
import type { BlockStamp, SimContext, SimControls, SimEvent, SimFaults, SimOptions } from './simContext.js';
import { resolveFaults } from './simOptions.js';
import { FixedWindowLimiter } from './rest/fixedWindowLimiter.js';
import { SimRequestLog } from './rest/simRequestLog.js';

/** Requests the request log keeps: a few minutes of a busy bot. */
const REQUESTS_LOGGED = 20_000;
import { TpslBook } from './tpsl/tpslBook.js';
import { TpslWatcher } from './tpsl/tpslWatcher.js';

export const SIM_DOMAIN_NAME = 'PerpsAuthorization';
export const SIM_DOMAIN_VERSION = '1';
/** The rise profile's domain name, as the live venue's eip712-domain returns it (venue-wire.md §2). */
const RISE_DOMAIN_NAME = 'RISEx';

/** Public trades kept per market for the trade-history read. */
const MARKET_TRADES_KEPT = 1000;

/**
 * One running simulator's state: the chain, the exchange core, the event stream and the fixed
 * wire answers. The HTTP and WebSocket sides both act through it; time comes from the clock.
 */
/** The exchange core's options beyond the simulator's own (fees, synthetic makers, the oracle's walk). */
export type ExchangeTuning = Omit<ExchangeOptions, 'seed' | 'markets'>;

export class SimRuntime implements SimContext {
  readonly clock: Clock;
  readonly chainState: SimChainState;
  readonly exchange: Exchange;
  /** Each market's latest public trades (GET /v1/markets/id/{id}/trade-history). */
  readonly marketTrades = new MarketTrades(MARKET_TRADES_KEPT);
  readonly signingContext: SigningContext;
  readonly domainWire: Eip712DomainWire;
  readonly systemConfigWire: SystemConfigWire;
  readonly operatorHub: Address;
  /** venue-facts: "rate limited: 1 request per second for update_leverage", per account. */
  readonly leverageLimiter = new FixedWindowLimiter(1, 1000);
  /** venue-facts: REST 500 requests per 10 s per IP (option `restRequestsPer10s`). */
  readonly ipLimiter: FixedWindowLimiter;
  /** The latest REST requests answered (`SimRequestLog`): what a test counts a client's reads by. */
  readonly requestLog = new SimRequestLog(REQUESTS_LOGGED);
  /** The TP/SL orders the venue keeps and executes for the accounts (venue-tpsl.md). */
  readonly tpsl: TpslBook;
  private readonly tpslWatcher: TpslWatcher;
  private readonly subject = new Subject<SimEvent>();
  private currentOptions: SimOptions;
  private controlsValue: SimControls | undefined;

  /**
   * `exchange` tunes the exchange core beyond the options (fees, synthetic makers, the oracle's
   * walk): the test kit turns the makers and the walk off so only scripted prices move.
   */
  constructor(options: SimOptions, clock: Clock, exchange: ExchangeTuning = {}) {
    this.currentOptions = options;
    this.clock = clock;
    this.ipLimiter = new FixedWindowLimiter(options.restRequestsPer10s, 10_000);
    this.chainState = new SimChainState({ clock, seed: options.seed, registrationLagMs: options.registrationLagMs });
    this.exchange = new Exchange({
      idBases: options.deterministicIds ? COUNTING_FROM_ONE : randomIdBases(),
      ...exchange,
      seed: options.seed,
      markets: options.markets,
    });
    const auth = seededAddress(options.seed, 'authorization');
    const router = seededAddress(options.seed, 'router');
    this.operatorHub = parseDomainAddress(seededAddress(options.seed, 'operator-hub'));
    this.domainWire = Object.freeze({
      name: domainName(options.selectors),
      version: SIM_DOMAIN_VERSION,
      chain_id: String(options.chainId),
      verifying_contract: parseDomainAddress(auth),
    });
    this.signingContext = createSigningContext(parseDomain(this.domainWire), router);
    this.tpsl = new TpslBook(options.deterministicIds ? 0n : randomIdBases().order);
    this.tpslWatcher = new TpslWatcher({
      book: this.tpsl,
      exchange: this.exchange,
      allowances: this.chainState.allowances,
      operatorHub: this.operatorHub,
      lagMs: () => this.currentOptions.tpslLagMs,
      record: (events) => this.recordAction(events),
    });
    this.systemConfigWire = Object.freeze({
      addresses: {
        auth: this.signingContext.domain.verifyingContract,
        router: this.signingContext.router,
        operator_hub: this.operatorHub,
        usdc: parseDomainAddress(seededAddress(options.seed, 'usdc')),
      },
      chain: { chain_id: String(options.chainId), name: 'perpbot-sim' },
      is_maintenance_mode: false,
    });
  }

  get options(): SimOptions {
    return this.currentOptions;
  }

  get chain(): SimChainState {
    return this.chainState;
  }

  get events(): Observable<SimEvent> {
    return this.subject.asObservable();
  }

  get controls(): SimControls {
    if (this.controlsValue === undefined) throw new Error('SimRuntime: controls are not attached yet');
    return this.controlsValue;
  }

  attachControls(controls: SimControls): void {
    this.controlsValue = controls;
  }

  setFaults(change: Partial<SimFaults>): void {
    this.currentOptions = Object.freeze({
      ...this.currentOptions,
      faults: resolveFaults(this.currentOptions.faults, change),
    });
  }

  setRegistrationLag(ms: number): void {
    this.currentOptions = Object.freeze({ ...this.currentOptions, registrationLagMs: ms });
    this.chainState.accounts.setRegistrationLag(ms);
  }

  nowSeconds(): number {
    return unixSeconds(this.clock);
  }

  /** Stamps a mined action and publishes what it produced. */
  recordAction(events: readonly ExchangeEvent[]): BlockStamp {
    const stamp = this.chainState.blocks.stampAction(this.clock.now());
    this.publishExchange(events, stamp);
    return stamp;
  }

  publish(event: SimEvent): void {
    this.subject.next(event);
  }

  /**
   * Seals a block: the oracle moves, makers act, GTT orders expire; the block event comes first.
   * Then the TP/SL orders the block's prices reach fire, and those due execute, each as a
   * transaction of its own.
   */
  mineBlock(): BlockStamp {
    const stamp = this.chainState.blocks.mine(this.clock.now());
    const result = this.exchange.advanceBlock(stamp.blockNumber, stamp.timestampMs);
    this.subject.next({ type: 'block', ...stamp });
    this.publishExchange(result.events, stamp);
    this.tpslWatcher.onBlock(stamp);
    return stamp;
  }

  /**
   * The TP/SL orders judged now, between blocks (a replay, whose blocks are its recorded oracle
   * frames: a recorded trade may reach a stop, and an execution falls due, in between). A trigger
   * is stamped as a transaction of its own.
   */
  watchTpsl(): void {
    this.tpslWatcher.between(this.clock.now(), () => this.recordAction([]));
  }

  complete(): void {
    this.subject.complete();
  }

  private publishExchange(events: readonly ExchangeEvent[], stamp: BlockStamp): void {
    // The history reads are built from the same events the channels send, stamped alike.
    this.exchange.history.record(events, stamp);
    this.marketTrades.record(events);
    for (const event of events) this.subject.next({ type: 'exchange', event, ...stamp });
  }
}

/** The rise profile speaks as the live venue, whose domain is "RISEx"; the spec profile keeps the spec's name. */
function domainName(selectors: SelectorTable): string {
  return selectors.placeOrder === RISE_SELECTORS.placeOrder ? RISE_DOMAIN_NAME : SIM_DOMAIN_NAME;
}

function parseDomainAddress(hex: `0x${string}`): Address {
  return parseAddress(hex, 'seeded address');
}
