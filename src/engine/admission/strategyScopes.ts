import { BehaviorSubject, combineLatest, distinctUntilChanged, map, type Observable } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import type { KillSwitchState } from '../guards/killSwitch.js';
import type { Intent } from '../intents/intents.js';
import { refusal, type Refusal } from '../intents/refusal.js';
import type { TrackedFill } from '../tracking/trackedFill.js';
import type { AdmissionPipeline } from './admissionPipeline.js';
import { StrategyBudgets, type BudgetsConfig, type BudgetsDeps } from './strategyBudgets.js';
import { strategyTradingState } from './strategyTradingState.js';
import type { TradingState } from './tradingConditions.js';

/**
 * Each strategy's own scope of admission, when it has a budget (its `risk:` block): the budgets,
 * handed to the admission, and each budget's kill switch, which halts that strategy only.
 */
export class StrategyScopes {
  private budgets: StrategyBudgets | undefined;
  private readonly kills = new BehaviorSubject<ReadonlyMap<string, KillSwitchState>>(new Map());

  constructor(
    private readonly admission: AdmissionPipeline,
    private readonly deps: Omit<BudgetsDeps, 'onKillSwitchChanged'> & { readonly clock: Clock },
  ) {}

  /** Each strategy's budget from now on (replacing any before); one not listed passes the account's limits only. */
  use(config: BudgetsConfig): void {
    this.budgets?.close(stoppingRefusal);
    this.budgets = new StrategyBudgets(config, {
      ...this.deps,
      onKillSwitchChanged: (strategy, state) => this.kills.next(new Map(this.kills.value).set(strategy, state)),
    });
    this.admission.useBudgets(this.budgets);
  }

  /**
   * The trading state a strategy sees: the account's, or `halted` while its own budget's kill
   * switch is tripped (`strategyTradingState`); the current one first, then every change.
   */
  tradingStateOf(strategy: string, account$: Observable<TradingState>): Observable<TradingState> {
    const own = this.kills.pipe(
      map((kills) => kills.get(strategy)),
      distinctUntilChanged(),
    );
    return combineLatest([account$, own]).pipe(
      map(([account, kill]) => strategyTradingState(account, kill, this.deps.clock.now())),
      distinctUntilChanged((a, b) => a.mode === b.mode && a.reasons.join('\n') === b.reasons.join('\n')),
    );
  }

  /** A strategy's own kill switch (undefined: no budget). */
  killSwitch(strategy: string): KillSwitchState | undefined {
    return this.budgets?.killSwitch(strategy);
  }

  resetKillSwitches(): void {
    this.budgets?.resetKillSwitches();
  }

  onFill(fill: TrackedFill): void {
    this.budgets?.onFill(fill);
  }

  revalueAll(): void {
    this.budgets?.revalueAll();
  }

  /** Refuses what still waits on a strategy's budget (the strategies stopped); cancels and closes go on. */
  close(): void {
    this.budgets?.close(stoppingRefusal);
  }
}

function stoppingRefusal(intent: Intent): Refusal {
  return refusal('engine_stopped', intent.kind, 'the bot is stopping; no new intents');
}
