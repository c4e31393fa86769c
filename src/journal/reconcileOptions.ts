import type { Clock } from '../core/clock.js';
import type { InferredOrderEvent } from '../engine/orders/orderModelEvent.js';
import type { AppliedOrderEvent } from '../engine/orders/orderStateMachine.js';
import type { RestClient } from '../venue/rest/restClient.js';
import type { FillRecord } from '../venue/schemas/wsFramesPrivate.js';
import type { VenueSnapshot } from '../venue/state/venueSnapshot.js';
import type { Journal } from './journal.js';
import type { ReconciliationReport } from './reconciliationReport.js';
import type { HistoryReads } from './venueHistory.js';

/** What a reconciliation does with an order open on the venue that the journal does not know. */
export type UnknownOrderPolicy = 'adopt' | 'cancel' | 'leave';

export interface ReconcileOptions {
  readonly journal: Journal;
  /** Without the history reads (or when they fail other than transiently) fills and fates are inferred. */
  readonly rest: Pick<RestClient, 'openOrders' | 'position' | 'nonceState' | 'markets' | 'crossMarginBalance'> &
    HistoryReads;
  readonly account: string;
  readonly markets: readonly number[];
  readonly clock: Clock;
  readonly trigger: ReconciliationReport['trigger'];
  /** Intents of this run are in flight in this very process: the engine resolves them. */
  readonly currentRunId?: string;
  readonly unknownOrders: UnknownOrderPolicy;
  /** The strategy that adopts an unknown order of a market (policy adopt). */
  readonly adopter?: (marketId: number) => string | undefined;
  /** False: only report (the CLI while a bot may be running); true: resolve into the journal. */
  readonly apply: boolean;
  /**
   * Orders the engine marked cancelled since then (a snapshot no longer listed them: filled or
   * cancelled, it cannot tell) are candidates too; default: since the last position base.
   */
  readonly closedSinceMs?: number;
  /**
   * Counts a fill read from the venue's trade history, once by its id, and says whether it was
   * new: the engine's tracker while it runs (`tracker.onFill(fill, 'history')`, whose fill ledger
   * journals it), so strategies and their budgets hear it too. Default: straight into the journal.
   */
  readonly countHistoryFill?: (fill: FillRecord) => boolean;
  /**
   * The engine's order model while it runs (`OrderTracker.infer`): what the reconciliation infers
   * of an order it holds is applied there, published to strategies, and journaled from its
   * changes, so the journal and the engine agree; orders it does not hold take the event in the
   * journal's records. Absent (at start, `perpbot reconcile`): the journal's records only.
   */
  readonly live?: {
    infer(intentId: string, event: InferredOrderEvent): AppliedOrderEvent | undefined;
  };
  /**
   * The venue as already read for this reconciliation (after a reconnect, the one read the
   * engine's reconciliation applied too): used when it covers every market needed and carries the
   * nonce state, else the venue is read again.
   */
  readonly snapshot?: VenueSnapshot;
  /** Records per page of the history and open-orders reads; default the venue's maximum. */
  readonly pageSize?: number;
}
