import type { EngineConfig } from '../config/engineConfig.js';
import type { Intent } from '../intents/intents.js';
import type { Refusal } from '../intents/refusal.js';
import type { AccountState } from '../tracking/accountState.js';
import { resolveCancel, type CancelLookup } from './cancelTarget.js';
import type { MarketView } from './marketView.js';
import { preTradeChecks } from './preTradeChecks.js';
import type { ResolvedAction } from './wireAction.js';

/** What passed the checks: the intent as snapped to the grid, the account it was judged on, the action to sign. */
export interface Checked {
  readonly intent: Intent;
  readonly state: AccountState;
  readonly action: ResolvedAction;
}

export interface CheckStageDeps extends CancelLookup {
  readonly config: EngineConfig;
  /** The market for the pre-trade checks, read at once and not kept (it may change as marks arrive). */
  market(marketId: number): MarketView | undefined;
}

/**
 * The check stage: the pre-trade checks against the market and the account, then a cancel's
 * target resolved to the venue's ids, what its hash commits to. Only that can wait (a read of the
 * venue's open orders for an order the model does not know); everything else is decided at once.
 */
export function checkStage(intent: Intent, deps: CheckStageDeps): Checked | Refusal | Promise<Checked | Refusal> {
  const state = deps.tracker.accountState();
  const verdict = preTradeChecks(intent, deps.market(intent.marketId), state, deps.config.preTrade);
  if (!verdict.ok) return verdict.refusal;
  const checked = verdict.intent;
  const action = verdict.action;
  if (action.action !== 'cancelOrder') return { intent: checked, state, action };
  return resolveCancel(action, deps).then((resolved) =>
    'rule' in resolved ? resolved : { intent: checked, state, action: resolved },
  );
}
