import type { IntentOutcome } from '../../../engine/intents/intentOutcome.js';
import { refusalCode } from '../../../engine/intents/refusal.js';
import type { Logger } from './createLogger.js';

/**
 * The log of intents refused by a tripped kill switch: the first of each strategy's halt is one
 * warning with the reason, the rest are only counted (the refusals metric has every one), and when
 * the strategy trades again one line says how many were not logged. A strategy that keeps quoting
 * into a halt would otherwise write a warning per intent.
 */
export class HaltedRefusalLog {
  /** By strategy, refusals not logged since its first of this halt. */
  private readonly quiet = new Map<string, number>();

  constructor(private readonly logger: Logger) {}

  /** True when the outcome is a kill-switch refusal, logged (the first) or counted here. */
  take(o: IntentOutcome): boolean {
    if (o.type !== 'refused' || o.refusal.rule !== 'kill_switch') return false;
    const count = this.quiet.get(o.strategy);
    if (count !== undefined) {
      this.quiet.set(o.strategy, count + 1);
      return true;
    }
    this.quiet.set(o.strategy, 0);
    this.logger.warn(
      {
        strategy: o.strategy,
        intentId: o.intentId,
        kind: o.kind,
        marketId: o.marketId,
        rule: o.refusal.rule,
        code: refusalCode(o.refusal.rule),
        reason: o.refusal.reason,
      },
      'intent refused: trading is halted; further refusals of this strategy while halted are counted, not logged',
    );
    return true;
  }

  /** The strategy is no longer halted: how many refusals went unlogged, once. */
  resumed(strategy: string): void {
    const count = this.quiet.get(strategy);
    if (count === undefined) return;
    this.quiet.delete(strategy);
    if (count > 0) this.logger.info({ strategy, refusedUnlogged: count }, 'intents refused while halted, not logged');
  }
}
