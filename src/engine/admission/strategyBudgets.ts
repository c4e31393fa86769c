import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { GuardConfig } from '../config/engineConfig.js';
import type { GuardVerdict } from '../guards/guardState.js';
import type { KillSwitchState } from '../guards/killSwitch.js';
import type { Intent } from '../intents/intents.js';
import type { Refusal } from '../intents/refusal.js';
import type { AccountState } from '../tracking/accountState.js';
import type { TrackedFill } from '../tracking/orderTracker.js';
import { AdmissionGate, type Admission } from './admissionGate.js';
import { budgetVerdict } from './budgetVerdict.js';
import type { StrategyBook } from '../ledger/sessionLedger.js';
import type { InFlightActions } from './inFlightActions.js';

/** The strategies' budgets, as the engine takes them (`EngineOptions.budgets`, `Engine.useBudgets`). */
export interface BudgetsConfig {
  /** Each strategy's limits, by instance name; a strategy not listed is not budgeted. */
  readonly limits: ReadonlyMap<string, GuardConfig>;
  /** A strategy's own conditions, judged before its rules (its freshness budgets: FEED_STALE). */
  readonly conditions?: (strategy: string) => { verdict(intent: Intent): GuardVerdict } | undefined;
}

/** What the budgets read of the engine. */
export interface BudgetsDeps {
  readonly clock: Clock;
  readonly log: Pick<Logger, 'error'>;
  readonly maxWaitMs: number;
  readonly inFlight: InFlightActions;
  /** The strategy's orders resting or of unknown fate, per market (the tracker's counts). */
  ordersOnVenue(strategy: string): Map<number, number>;
  /** The engine's mark of a market: the one place marks come from. */
  markOf(marketId: number): string | undefined;
  /** A strategy's share of the engine's one ledger of fills and PnL. */
  bookOf(strategy: string): StrategyBook;
  /** Cancels every order of the strategy (its kill switch tripped). */
  cancelOrdersOf(strategy: string): Promise<void>;
  /** The strategy's kill switch tripped or was reset. */
  onKillSwitchChanged?(strategy: string, state: KillSwitchState): void;
}

interface Budget {
  readonly book: StrategyBook;
  readonly gate: AdmissionGate;
}

/**
 * Each strategy's budget as one scope of the admission gate, inside the engine: judged after the
 * pre-trade checks and before the account's limits. Intents of one strategy are judged one at a
 * time in arrival order (a wait on its action rate holds back those behind it). A strategy whose
 * own fills lose `kill_switch.max_loss` has its orders cancelled, and only cancels and closes pass
 * for it from then on; the other strategies go on.
 */
export class StrategyBudgets {
  private readonly budgets = new Map<string, Budget>();

  constructor(
    config: BudgetsConfig,
    private readonly deps: BudgetsDeps,
  ) {
    for (const [name, limits] of config.limits) this.budgets.set(name, this.budgetOf(name, limits, config));
  }

  has(strategy: string): boolean {
    return this.budgets.has(strategy);
  }

  /** The budget's answer now when nothing waits ahead of the intent and it need not wait; undefined otherwise. */
  admitNow(intent: Intent): Admission | undefined {
    const budget = this.budgets.get(intent.strategy);
    if (budget === undefined || budget.gate.queueing) return undefined;
    return budget.gate.admitNow(intent);
  }

  /** The budget's answer, in turn behind the strategy's earlier intents; undefined when the strategy has no budget. */
  admit(intent: Intent): Promise<Admission> | undefined {
    const budget = this.budgets.get(intent.strategy);
    if (budget === undefined) return undefined;
    return new Promise((resolve) => budget.gate.enqueue(intent, resolve));
  }

  /** Takes a waiting intent out of its strategy's queue, answered with `answer`. */
  withdraw(intent: Intent, answer: Refusal): boolean {
    return this.budgets.get(intent.strategy)?.gate.withdraw(intent.intentId, answer) ?? false;
  }

  /** A fill of one of the engine's orders (already booked in the ledger): its strategy's loss again. */
  onFill(fill: TrackedFill): void {
    const budget = fill.strategy === undefined ? undefined : this.budgets.get(fill.strategy);
    if (budget !== undefined) this.revalue(budget);
  }

  /** The marks moved: every strategy's loss again. */
  revalueAll(): void {
    for (const budget of this.budgets.values()) this.revalue(budget);
  }

  killSwitch(strategy: string): KillSwitchState | undefined {
    return this.budgets.get(strategy)?.gate.killSwitch;
  }

  /** Resets every strategy's kill switch (a loss still past its limit trips it again at the next valuation). */
  resetKillSwitches(): void {
    for (const budget of this.budgets.values()) budget.gate.reset();
  }

  /** Refuses what still waits with `refusal` and stops the budgets' timers. */
  close(refusal: (intent: Intent) => Refusal): void {
    for (const budget of this.budgets.values()) budget.gate.close(refusal);
  }

  private revalue(budget: Budget): void {
    const pnl = budget.book.loss();
    if (pnl !== undefined) budget.gate.watchPnl(pnl);
  }

  /** One strategy's scope: its limits on its own ledger, resting orders and in-flight placements. */
  private budgetOf(name: string, limits: GuardConfig, config: BudgetsConfig): Budget {
    const { deps } = this;
    const book = deps.bookOf(name);
    const conditions = config.conditions?.(name);
    // Resting (and unknown) orders; those admitted and in flight are counted by the in-flight
    // count, and those still queued are not orders on the venue yet.
    const accountState = (): AccountState => {
      return { positions: book.positions(), marginModes: new Map(), openOrders: deps.ordersOnVenue(name) };
    };
    const gate = new AdmissionGate({
      name: `strategy ${name}`,
      // The strategy's loss is judged on its own fills, which arrive whole: no confirmation delay.
      config: { ...limits, killSwitchLossConfirmMs: 0 },
      clock: deps.clock,
      maxWaitMs: deps.maxWaitMs,
      inFlight: deps.inFlight,
      inFlightFilter: { strategy: name, placementsOnly: true },
      accountState,
      judge: (state, intent, guardConfig) => budgetVerdict(name, state, intent, guardConfig),
      ...(conditions === undefined ? {} : { conditions }),
      marks: (intent) => {
        const mark = deps.markOf(intent.marketId);
        return mark === undefined ? new Map() : new Map([[intent.marketId, mark]]);
      },
      onKillSwitchChanged: (state) => deps.onKillSwitchChanged?.(name, state),
      onKillSwitchTripped: (reason) => {
        deps.log.error({ strategy: name, reason }, 'strategy kill switch tripped: cancelling its orders');
        deps
          .cancelOrdersOf(name)
          .catch((error: unknown) =>
            deps.log.error(
              { strategy: name, err: error },
              "could not cancel the strategy's orders after its kill switch tripped",
            ),
          );
      },
    });
    return { book, gate };
  }
}
