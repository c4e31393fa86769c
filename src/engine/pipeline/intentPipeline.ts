import { Subject, type Observable } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { detach } from '../../core/detach.js';
import { PerpbotError } from '../../core/perpbotError.js';
import { acceptIntent, type AcceptDeps } from '../accept/acceptIntent.js';
import { cancelledWhileQueued } from '../intents/cancelledWhileQueued.js';
import { EarlierCancels } from '../accept/earlierCancels.js';
import type { ClientOrderIds } from '../intents/clientOrderIds.js';
import type { IntentOutcome } from '../intents/intentOutcome.js';
import {
  isPlaceIntent,
  placesAnOrder,
  type BracketIntent,
  type Intent,
  type PlaceLimitIntent,
  type ProtectIntent,
  type QuoteIntent,
  type ReplaceIntent,
} from '../intents/intents.js';
import type { Refusal } from '../intents/refusal.js';
import type { SendHold } from '../nonces/nonceStage.js';
import type { EngineJournal } from '../tracking/engineJournal.js';
import type { OrderTracker } from '../tracking/orderTracker.js';
import type { PipelineDeps } from './pipelineDeps.js';
import { runStages } from './runStages.js';

/** The replacements' and quote targets' part of the way (`Quoting`). */
export interface PipelineQuoting {
  acted(intent: Intent): void;
  arrived(intent: PlaceLimitIntent): void;
  arrivedReplace(intent: ReplaceIntent): IntentOutcome | undefined;
  quote(intent: QuoteIntent): IntentOutcome;
  replace(intent: ReplaceIntent): Promise<IntentOutcome>;
}

/** The strategies' protections' part (`StrategyProtections`): a protect intent is taken at once. */
export interface PipelineProtections {
  protect(intent: ProtectIntent | BracketIntent): IntentOutcome;
}

export interface IntentPipelineOptions {
  readonly tracker: OrderTracker;
  readonly journal: EngineJournal;
  readonly clock: Clock;
  readonly log: Logger;
  readonly clientOrderIds: ClientOrderIds;
  /** The engine stops: every wait ends. */
  readonly signal: AbortSignal;
  quoting(): PipelineQuoting;
  readonly protections: PipelineProtections;
  /** Takes a queued intent out of admission (it answers `cancelled_queued`). */
  withdraw(intentId: string): void;
  /** Refused before anything else: the engine stops, or the venue refused our signer. */
  refusal(intent: Intent): Refusal | undefined;
  /** What the stages need, built once per signing context and allocator; throws before `start()`. */
  stageDeps(): PipelineDeps;
  /** A flight's replay only: what a placement waits for before its admission. */
  readonly admissionHold?: ((intent: Intent) => Promise<void> | undefined) | undefined;
}

/**
 * The engine's pipeline: an intent is journaled and accepted into the order model (`accept/`),
 * waits behind its strategy's earlier cancels, and runs through the stages (`runStages`) to its
 * one terminal outcome, which is journaled and published on `outcomes$`.
 */
export class IntentPipeline {
  private readonly outcomeSubject = new Subject<IntentOutcome>();
  readonly outcomes$: Observable<IntentOutcome> = this.outcomeSubject.asObservable();
  private readonly actionSubject = new Subject<Intent>();
  /** Every intent the engine runs as it arrives: the strategies' and its own (a quote target's actions). */
  readonly actions$: Observable<Intent> = this.actionSubject.asObservable();
  private readonly pending = new Map<string, Promise<IntentOutcome>>();
  private readonly earlierCancels = new EarlierCancels();

  /** Built once, not per intent: closures per intent show in the engine's profile. */
  private readonly accept: AcceptDeps;

  constructor(private readonly o: IntentPipelineOptions) {
    this.accept = {
      tracker: o.tracker,
      arrivedReplace: (replace) => o.quoting().arrivedReplace(replace),
      arrivedPlacement: (placement) => o.quoting().arrived(placement),
      cancelQueued: (intentId) => this.cancelQueued(intentId),
      now: () => o.clock.now(),
    };
  }

  /**
   * Runs an intent to its terminal outcome (also published on `outcomes$`). A placement is the
   * engine's order from here on (`queued`, listed by `tracker.openOrders()`); a cancel of an order
   * still queued takes it out of the queue, nothing sent, and is accepted at once.
   */
  execute(intent: Intent, hold?: SendHold): Promise<IntentOutcome> {
    this.o.journal.intentReceived(intent, this.o.clock.now());
    if (this.actionSubject.observed) this.actionSubject.next(intent);
    const quoting = this.o.quoting();
    quoting.acted(intent);
    const local = acceptIntent(intent, this.accept);
    const run = (local === undefined ? this.runKind(intent, quoting, hold) : Promise.resolve(local)).then((outcome) => {
      this.pending.delete(intent.intentId);
      this.o.journal.outcome(outcome);
      this.outcomeSubject.next(outcome);
      return outcome;
    });
    this.pending.set(intent.intentId, run);
    if (local === undefined && (intent.kind === 'cancel' || intent.kind === 'cancelAll'))
      this.earlierCancels.add(intent, run);
    return run;
  }

  /** Asks the order to go; a queued one goes now (withdrawn from admission, nothing sent). True when it was queued. */
  cancelQueued(intentId: string): boolean {
    if (!this.o.tracker.requestCancel(intentId)) return false;
    this.o.withdraw(intentId);
    return true;
  }

  /** Resolves once every intent submitted so far has its terminal outcome. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending.values()]);
  }

  /** Every intent still running has its outcome (the engine stopped: their waits were aborted). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending.values()]);
  }

  complete(): void {
    this.outcomeSubject.complete();
  }

  /**
   * A quote target and a protection are taken at once; a replace runs its pair; a bracket is its
   * protection and its entry; every other intent runs to its action.
   */
  private runKind(intent: Intent, quoting: PipelineQuoting, hold: SendHold | undefined): Promise<IntentOutcome> {
    if (intent.kind === 'quote') return Promise.resolve(quoting.quote(intent));
    if (intent.kind === 'replace') return quoting.replace(intent);
    if (intent.kind === 'protect') return Promise.resolve(this.o.protections.protect(intent));
    if (intent.kind === 'bracket') return Promise.resolve(this.bracket(intent));
    return this.run(intent, hold);
  }

  /**
   * The protection first, so the entry's first fill is already protected; then the entry, an
   * intent of its own (its outcome and order events under its id). A refused protection places nothing.
   */
  private bracket(intent: BracketIntent): IntentOutcome {
    const outcome = this.o.protections.protect(intent);
    if (outcome.type === 'accepted')
      detach(this.execute(intent.entry), (err) =>
        this.o.log.error({ err, intentId: intent.entry.intentId }, "a bracket's entry ended without an outcome"),
      );
    return outcome;
  }

  /**
   * An intent to its terminal outcome. With a `hold` (one action of a replacement) it is signed at
   * once and sent when the hold allows, instead of waiting for the strategy's earlier cancels.
   */
  async run(intent: Intent, hold?: SendHold): Promise<IntentOutcome> {
    const atMs = this.o.clock.now();
    const refused = this.o.refusal(intent);
    if (refused !== undefined) {
      this.o.tracker.settle(intent.intentId, 'refused', { code: refused.rule, reason: refused.reason, by: 'checks' });
      return refusedAt(intent, refused, atMs);
    }
    if (intent.kind === 'cancel' && 'intentId' in intent.target) {
      // Cancelling an order whose placement is still in flight: wait for the placement first.
      await this.pending.get(intent.target.intentId);
    }
    if (!(await this.stillWanted(intent, hold))) return refusedAt(intent, cancelledWhileQueued(intent), atMs);
    // Every order gets a client_order_id, a close too: a fill that arrives before the placement's
    // answer is tied to its order (and strategy) by it. Object.assign, not a spread: a spread that
    // adds a field costs about a microsecond in V8.
    const prepared =
      placesAnOrder(intent) && intent.clientOrderId === undefined
        ? Object.assign({}, intent, { clientOrderId: this.o.clientOrderIds.next() })
        : intent;
    try {
      return await runStages(prepared, this.o.stageDeps(), this.o.signal, hold);
    } catch (error) {
      return this.failed(intent, error, atMs);
    }
  }

  /**
   * After a replay's admission hold and the strategy's earlier cancels: false when the order was
   * cancelled meanwhile (held, it never reached admission, where a cancel of it would have found it).
   */
  private async stillWanted(intent: Intent, hold: SendHold | undefined): Promise<boolean> {
    const replayed = this.o.admissionHold?.(intent);
    if (replayed !== undefined) {
      await replayed;
      if (placesAnOrder(intent) && this.cancelled(intent)) return false;
    }
    if (hold !== undefined || !isPlaceIntent(intent) || !this.earlierCancels.has(intent.strategy)) return true;
    await this.earlierCancels.settled(intent.strategy);
    return !this.cancelled(intent);
  }

  private cancelled(intent: Intent): boolean {
    return this.o.tracker.order(intent.intentId)?.state === 'cancelled';
  }

  private failed(intent: Intent, error: unknown, atMs: number): IntentOutcome {
    // Stopping aborts what still waits (a hold, a guard): expected then, not a fault.
    if (error instanceof PerpbotError && error.code === 'ENGINE_STOPPED')
      this.o.log.info({ intentId: intent.intentId }, 'intent ended by the engine stopping');
    else this.o.log.error({ err: error, intentId: intent.intentId }, 'intent failed unexpectedly');
    const code = error instanceof PerpbotError ? error.code : 'UNEXPECTED';
    const message = error instanceof Error ? error.message : String(error);
    this.o.tracker.settle(intent.intentId, 'failed', { code, reason: message, by: 'venue' });
    const { intentId, strategy, kind, marketId } = intent;
    return { intentId, strategy, kind, marketId, atMs, type: 'failed', error: { code, message, hints: [] } };
  }
}

function refusedAt(intent: Intent, refusal: Refusal, atMs: number): IntentOutcome {
  const { intentId, strategy, kind, marketId } = intent;
  // Fields in the order these outcomes always had, for logs and journals.
  return { intentId, strategy, kind, marketId, atMs, type: 'refused', refusal };
}
