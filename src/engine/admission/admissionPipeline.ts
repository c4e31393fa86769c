import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Intent } from '../intents/intents.js';
import { cancelledWhileQueued } from '../intents/cancelledWhileQueued.js';
import type { AccountState } from '../tracking/accountState.js';
import type { AdmissionGate, Admission } from './admissionGate.js';
import type { InFlightTicket } from './inFlightActions.js';
import type { StrategyBudgets } from './strategyBudgets.js';

/** An intent waits longer than this: it is logged, so a strategy's author can see the wait. */
export const LONG_WAIT_MS = 1_000;

export interface AdmissionPipelineOptions {
  /** The account's scope: the trading conditions and every account guard. */
  readonly account: AdmissionGate;
  readonly clock: Clock;
  readonly log: Pick<Logger, 'warn'>;
  /** The engine stops: every wait ends. */
  readonly signal: AbortSignal;
}

interface Waiting {
  readonly intent: Intent;
  readonly cancel: AbortController;
}

/**
 * The engine's one admission, after the pre-trade checks: the strategy's budget, then the
 * account's limits. Answers at once when nothing has to be waited for; otherwise the intent waits
 * (in turn behind its strategy's earlier intents at the budget, then on the account's rate limit)
 * and can be withdrawn by a cancel while it waits, nothing sent. The ticket it hands out is the one
 * in-flight entry of the intent (both scopes hold the same): whoever holds it settles it, once.
 */
export class AdmissionPipeline {
  private budgets: StrategyBudgets | undefined;
  private readonly waiting = new Map<string, Waiting>();
  /** Admitted by the budget at once but left waiting at the account: not asked again. */
  private readonly budgetAdmitted = new Map<string, InFlightTicket>();

  constructor(private readonly o: AdmissionPipelineOptions) {}

  useBudgets(budgets: StrategyBudgets | undefined): void {
    this.budgets = budgets;
  }

  /** The answer when it is known at once (same effects as `admit` giving it); undefined when the intent must wait. */
  admitNow(intent: Intent, state: AccountState): Admission | undefined {
    const budgets = this.budgets;
    let budgetTicket: InFlightTicket | undefined;
    if (budgets?.has(intent.strategy) === true) {
      const answer = budgets.admitNow(intent);
      if (answer === undefined) return undefined;
      if ('rule' in answer) return answer;
      budgetTicket = answer;
    }
    const account = this.o.account.admitNow(intent, state);
    if (account === undefined) {
      if (budgetTicket !== undefined) this.budgetAdmitted.set(intent.intentId, budgetTicket);
      return undefined;
    }
    if ('rule' in account) budgetTicket?.settled();
    return account;
  }

  /** Waits for the budget's, then the account's answer; a cancel of it meanwhile refuses it (`cancelled_queued`). */
  async admit(intent: Intent, state?: AccountState): Promise<Admission> {
    const started = this.o.clock.now();
    const cancel = new AbortController();
    this.waiting.set(intent.intentId, { intent, cancel });
    try {
      const budgetTicket = await this.budgetAnswer(intent);
      if (budgetTicket !== undefined && 'rule' in budgetTicket) return budgetTicket;
      if (cancel.signal.aborted) {
        budgetTicket?.settled();
        return cancelledWhileQueued(intent);
      }
      const account = await this.accountAnswer(intent, cancel.signal, state).catch((error: unknown) => {
        // The engine stops while it waits: the budget's hold ends with it.
        budgetTicket?.settled();
        throw error;
      });
      if ('rule' in account) budgetTicket?.settled();
      return account;
    } finally {
      this.waiting.delete(intent.intentId);
      this.budgetAdmitted.delete(intent.intentId);
      const waitedMs = this.o.clock.now() - started;
      if (waitedMs > LONG_WAIT_MS)
        this.o.log.warn(
          { intentId: intent.intentId, strategy: intent.strategy, kind: intent.kind, waitedMs },
          'intent waited for admission (the strategy budget or the account rate limit)',
        );
    }
  }

  /**
   * Withdraws a waiting intent: its `admit` answers `cancelled_queued` and nothing is sent. False
   * when it is not waiting (already admitted, or never queued).
   */
  withdraw(intentId: string): boolean {
    const waiting = this.waiting.get(intentId);
    if (waiting === undefined) return false;
    waiting.cancel.abort();
    this.budgets?.withdraw(waiting.intent, cancelledWhileQueued(waiting.intent));
    return true;
  }

  /** Intents waiting for admission now, per strategy. */
  waitingByStrategy(): ReadonlyMap<string, number> {
    const counts = new Map<string, number>();
    for (const { intent } of this.waiting.values()) counts.set(intent.strategy, (counts.get(intent.strategy) ?? 0) + 1);
    return counts;
  }

  /** The budget's ticket or refusal; undefined when the strategy has no budget. */
  private async budgetAnswer(intent: Intent): Promise<Admission | undefined> {
    const admitted = this.budgetAdmitted.get(intent.intentId);
    if (admitted !== undefined) return admitted;
    return this.budgets?.admit(intent);
  }

  private async accountAnswer(
    intent: Intent,
    cancel: AbortSignal,
    state: AccountState | undefined,
  ): Promise<Admission> {
    try {
      return await this.o.account.admit(intent, AbortSignal.any([this.o.signal, cancel]), state);
    } catch (error) {
      if (cancel.aborted && !this.o.signal.aborted) return cancelledWhileQueued(intent);
      throw error;
    }
  }
}
