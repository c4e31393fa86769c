import type { Observable, Subscription } from 'rxjs';
import type { OracleMessage } from '../../venue/schemas/wsFramesOracle.js';
import type {
  AccountMessage,
  FillsMessage,
  OrdersMessage,
  PositionsMessage,
} from '../../venue/schemas/wsFramesPrivate.js';
import { SignerNotActiveError } from '../../venue/ws/venueWsError.js';
import type { ConnectionStatusView } from '../admission/followConnection.js';
import { FeedLostError } from './feedLostError.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import type { TradingStop } from '../stopping/tradingStop.js';
import type { StopCause } from '../stopping/tradingStoppedError.js';
import type { Logger } from '../../core/logger.js';

/** The venue's feeds the engine keeps its state from. */
export interface EngineFeeds {
  readonly orders: Observable<OrdersMessage>;
  readonly positions: Observable<PositionsMessage>;
  readonly fills: Observable<FillsMessage>;
  readonly account: Observable<AccountMessage>;
  readonly oracle: Observable<OracleMessage>;
  /**
   * The connection's states (the WebSocket client's `connectionState$`): leaving `authenticated`
   * makes the engine degraded; coming back reconciles through REST, which lifts it.
   */
  readonly connection?: Observable<ConnectionStatusView>;
  /** Emits after each reconnect (once re-authenticated): the engine reconciles. For feeds without `connection`. */
  readonly reconnected?: Observable<unknown>;
  /**
   * Frames lost on a connection that stayed open (the WebSocket client's `framesLost$`): the
   * engine reconciles the window from `sinceMs` as after a reconnect, since none follows.
   */
  readonly framesLost?: Observable<{ readonly sinceMs: number }>;
  /**
   * When each connection's first oracle frame arrived (the WebSocket client's `streamCounted$`):
   * frames lost before it show no gap, so after a reconnect whose round may have read before it
   * the engine reads back once more (`StreamCoverage`).
   */
  readonly streamCounted?: Observable<number>;
}

/** What the followed messages update. */
export interface FeedTargets {
  readonly tracker: OrderTracker;
  /** A live mark from the oracle. */
  setMark(marketId: number, markPrice: string): void;
}

export interface FeedFollowerOptions {
  readonly subscriptions: Subscription;
  readonly log: Logger;
  readonly trip: (reason: string) => void;
  readonly tradingStop: TradingStop;
  /** True once the engine stops: a feed ending then is expected, not a failure. */
  readonly stopping: () => boolean;
  readonly onFeedLost: ((error: FeedLostError) => void) | undefined;
}

/**
 * Follows the venue's feeds into the engine's state. A feed that fails for good, or a message its
 * handler throws on, stops trading (kill switch tripped, reported once): nothing is rethrown to
 * RxJS, which would report it asynchronously as unhandled.
 */
export class FeedFollower {
  constructor(private readonly o: FeedFollowerOptions) {}

  /** The private channels and the oracle, each into what it updates. */
  followAll(feeds: EngineFeeds, to: FeedTargets): void {
    this.follow('orders', feeds.orders, (m) => to.tracker.onOrderRecords(m.orders, m.type === 'snapshot'));
    this.follow('positions', feeds.positions, (m) => to.tracker.onPositions(m.positions));
    this.follow('fills', feeds.fills, (m) => to.tracker.onFill(m.fill));
    this.follow('account', feeds.account, (m) => to.tracker.onBalance(m.account.balance));
    this.follow('oracle', feeds.oracle, (m) => {
      for (const [marketId, price] of m.prices)
        if (price.markPrice !== undefined) to.setMark(marketId, price.markPrice);
    });
  }

  follow<T>(channel: keyof EngineFeeds, source: Observable<T>, next: (message: T) => void): void {
    this.o.subscriptions.add(
      source.subscribe({
        next: (message) => {
          try {
            next(message);
          } catch (error) {
            this.lost(channel, error);
          }
        },
        error: (error: unknown) => this.lost(channel, error),
      }),
    );
  }

  private lost(channel: string, cause: unknown): void {
    const { log } = this.o;
    const error = new FeedLostError(channel, cause);
    if (this.o.stopping()) {
      log.info({ err: error, channel }, 'a venue feed ended while the engine stops');
      return;
    }
    log.error({ err: error, channel }, 'a venue feed failed: trading stopped (kill switch tripped)');
    this.o.trip(`feed lost: ${error.message}`);
    if (!this.o.tradingStop.reported) this.o.onFeedLost?.(error);
    this.o.tradingStop.stop(feedLossCause(cause), error.message, error);
  }
}

/** A feed lost to a revoked signer is a signer condition; anything else, the feed's. */
function feedLossCause(cause: unknown): StopCause {
  return cause instanceof SignerNotActiveError ? 'signer_not_active' : 'feed_lost';
}
