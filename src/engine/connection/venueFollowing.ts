import { Subject, type Observable, type Subscription } from 'rxjs';
import type { Address } from '../../core/address.js';
import type { Clock } from '../../core/clock.js';
import { detach } from '../../core/detach.js';
import type { Logger } from '../../core/logger.js';
import type { RestClient } from '../../venue/rest/restClient.js';
import { readVenueSnapshot, readVenueSnapshotWithNonces, type VenueSnapshot } from '../../venue/state/venueSnapshot.js';
import { followConnection, type ConnectionStatusView } from '../admission/followConnection.js';
import type { TradingConditions } from '../admission/tradingConditions.js';
import type { DegradedConfig } from '../config/engineConfig.js';
import type { TradingStop } from '../stopping/tradingStop.js';
import type { TradingStoppedError } from '../stopping/tradingStoppedError.js';
import { orderRecordsOf, positionRecordsOf } from '../tracking/snapshotRecords.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import { DegradedModeWatch } from './degradedModeWatch.js';
import { FeedFollower, type EngineFeeds } from './feedFollower.js';
import type { FeedLostError } from './feedLostError.js';
import { LostFrameRounds } from './lostFrameRounds.js';
import { ReconnectReconciler, type ReconnectPart } from './reconnectReconciler.js';
import { SnapshotReconnectPart } from './snapshotReconnectPart.js';
import { StreamCoverage } from './streamCoverage.js';
import { unlistedOrderFates } from './unlistedOrderFates.js';

export interface EngineHooks {
  /** A feed failed for good (also reported through `onStopped`). */
  readonly onFeedLost?: (error: FeedLostError) => void;
  /** Trading stopped for a definite reason (feed lost, signer refused, outage too long): called once. */
  readonly onStopped?: (error: TradingStoppedError) => void;
}

export interface VenueFollowingOptions {
  readonly rest: RestClient;
  readonly account: Address;
  readonly clock: Clock;
  readonly log: Logger;
  readonly degraded: DegradedConfig;
  readonly tracker: OrderTracker;
  readonly conditions: TradingConditions;
  readonly tradingStop: TradingStop;
  readonly subscriptions: Subscription;
  /** The engine stops: every wait ends. */
  readonly signal: AbortSignal;
  /** The markets a reconciliation reads: those configured, else every market of the venue. */
  markets(): readonly number[];
  /** Trips the account's kill switch. */
  trip(reason: string): void;
  stopping(): boolean;
  setMark(marketId: number, markPrice: string): void;
}

/**
 * The engine's hold on the venue's state: reconciles from REST at start and after every reconnect
 * (one reconnect reconciler, the engine's snapshot first among its parts), follows the private
 * feeds and the oracle, and keeps the engine degraded while the connection is down.
 */
export class VenueFollowing {
  private readonly reconnectSubject = new Subject<{ readonly lostAtMs: number }>();
  /** See `Engine.reconnects$`. */
  readonly reconnects$: Observable<{ readonly lostAtMs: number }> = this.reconnectSubject.asObservable();
  private readonly reconnectReconciler: ReconnectReconciler;
  /**
   * Frames lost on a connection that stayed up: every reconciler covers their window, as after a
   * reconnect, one round at a time; intents wait meanwhile, but the engine stays trading unless a
   * part fails.
   */
  private readonly lostFrameRounds: LostFrameRounds;
  /** Whether a reconnected stream vouches for what happened since the reconnect's read; a round when not. */
  private readonly coverage: StreamCoverage;
  private degradedWatch: DegradedModeWatch | undefined;
  /** The tracker's acceptance mark when each round's read began: the orders it could not list yet. */
  private readonly readsFrom = new WeakMap<VenueSnapshot, number>();

  constructor(private readonly o: VenueFollowingOptions) {
    this.reconnectReconciler = new ReconnectReconciler({
      conditions: o.conditions,
      clock: o.clock,
      signal: o.signal,
      readVenue: async (markets) => {
        const readAtMs = o.clock.now();
        const readFrom = o.tracker.readMark();
        const snapshot = { ...(await readVenueSnapshotWithNonces(o.rest, { account: o.account, markets })), readAtMs };
        this.readsFrom.set(snapshot, readFrom);
        return snapshot;
      },
    });
    this.lostFrameRounds = new LostFrameRounds({
      round: (sinceMs, cause) => this.reconnectReconciler.reconnected(sinceMs, cause),
      clock: o.clock,
      signal: o.signal,
      onError: (err) => o.log.error({ err }, 'reconciliation after lost frames failed; trading stays paused'),
    });
    this.coverage = new StreamCoverage((sinceMs) => {
      o.log.info(
        { sinceMs },
        "the connection's streams began after the venue was last read: reading back from that read",
      );
      this.lostFrameRounds.lost(sinceMs, 'stream_start');
    });
  }

  /**
   * The start's reconciliation. When it finds what can fill or change before the first
   * connection's streams vouch for it (own or foreign orders resting, a position), a round from
   * this read is owed once that connection is authenticated and counted (`StreamCoverage`).
   */
  async reconcileAtStart(): Promise<void> {
    const readAtMs = this.o.clock.now();
    await this.reconcile();
    const { tracker } = this.o;
    if (tracker.openOrders().length > 0 || tracker.foreignOrders().length > 0 || tracker.allPositions().length > 0)
      this.coverage.startedWithHoldings(readAtMs);
  }

  /**
   * Open orders, positions and balance from REST, as the truth after a start or a reconnect; an
   * order held as resting that the snapshot no longer lists takes its fate from the order history
   * (filled or cancelled), so what the stages read next is what the journal records.
   */
  async reconcile(read?: VenueSnapshot): Promise<void> {
    const { rest, account, log, tracker } = this.o;
    // What changes while the venue is read (a placement accepted, the feed's positions and balance) stays.
    const readFrom = read === undefined ? tracker.readMark() : this.readsFrom.get(read);
    const snapshot = read ?? (await readVenueSnapshot(rest, { account, markets: this.o.markets() }));
    const orders = orderRecordsOf(snapshot);
    const fates = await unlistedOrderFates(rest, account, tracker.openOrders(), orders).catch((err: unknown) => {
      log.warn({ err }, 'order history not read: orders that left the book while unobserved count as cancelled');
      return [];
    });
    tracker.onPositions(positionRecordsOf(snapshot), readFrom);
    tracker.onOrderRecords(fates, false);
    tracker.holdSnapshotCloses(false);
    tracker.onOrderRecords(orders, true, readFrom);
    tracker.onBalance(snapshot.balance, readFrom);
  }

  /** See `Engine.attach`. */
  attach(feeds: EngineFeeds, hooks: EngineHooks): void {
    this.o.tradingStop.listen(hooks.onStopped);
    const follower = new FeedFollower({
      subscriptions: this.o.subscriptions,
      log: this.o.log,
      trip: (reason) => this.o.trip(reason),
      tradingStop: this.o.tradingStop,
      stopping: () => this.o.stopping(),
      onFeedLost: hooks.onFeedLost,
    });
    follower.followAll(feeds, {
      tracker: this.o.tracker,
      setMark: (marketId, markPrice) => this.o.setMark(marketId, markPrice),
    });
    if (feeds.connection !== undefined) this.followConnection(feeds.connection);
    if (feeds.framesLost !== undefined)
      follower.follow('framesLost', feeds.framesLost, ({ sinceMs }) => this.lostFrameRounds.lost(sinceMs));
    if (feeds.streamCounted !== undefined)
      follower.follow('streamCounted', feeds.streamCounted, () => this.coverage.counted());
    if (feeds.reconnected !== undefined) {
      follower.follow('reconnected', feeds.reconnected, () => {
        this.reconcile().catch((error: unknown) =>
          this.o.log.error({ err: error }, 'reconciliation after reconnect failed'),
        );
      });
    }
  }

  /** See `Engine.addReconnectPart`. */
  addReconnectPart(part: ReconnectPart): () => void {
    return this.reconnectReconciler.add(part);
  }

  get degradedStats(): { readonly periods: number; readonly longestMs: number } {
    return this.degradedWatch?.stats ?? { periods: 0, longestMs: 0 };
  }

  /** Degraded while the connection is down; back, it reconciles (and tells the other reconcilers). */
  private followConnection(connection: Observable<ConnectionStatusView>): void {
    const { conditions, log } = this.o;
    // First among the parts: its snapshot starts before any other part's reconciliation.
    this.reconnectReconciler.add(
      new SnapshotReconnectPart({
        conditions,
        reconcile: (snapshot) => this.reconcile(snapshot),
        markets: () => this.o.markets(),
        log,
      }),
    );
    this.o.subscriptions.add(
      followConnection(
        connection,
        conditions,
        () => {
          // Still degraded here (every reconciler is due), so sinceMs is when the loss began.
          const lostAtMs = conditions.state.sinceMs;
          detach(this.reconnectReconciler.reconnected(lostAtMs), (err) =>
            log.error({ err }, 'reconciliation after a reconnect failed; trading stays degraded'),
          );
          this.reconnectSubject.next({ lostAtMs });
          this.coverage.reconnected(this.o.clock.now());
        },
        () => this.o.tracker.holdSnapshotCloses(true),
      ),
    );
    // Every connection, not only the first of an outage (followConnection's callbacks): each new one
    // is authenticated and counts its blocks afresh.
    this.o.subscriptions.add(
      connection.subscribe((state) => {
        if (state.status === 'authenticated') this.coverage.authenticated();
        else if (state.status === 'reconnecting' || state.status === 'closed') this.coverage.lost();
      }),
    );
    const watch = new DegradedModeWatch({
      conditions,
      clock: this.o.clock,
      config: this.o.degraded,
      log,
      trip: (reason) => this.o.trip(reason),
      tradingStop: this.o.tradingStop,
    });
    this.degradedWatch = watch;
    this.o.subscriptions.add(() => watch.dispose());
  }
}
