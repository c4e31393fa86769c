import { Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { OutageWatch } from '../admission/outageWatch.js';
import type { TradingConditions, TradingState } from '../admission/tradingConditions.js';
import type { DegradedConfig } from '../config/engineConfig.js';
import type { TradingStop } from '../stopping/tradingStop.js';
import type { Logger } from '../../core/logger.js';

/**
 * Watches the engine's degraded periods: one log line when a period begins and one when it ends
 * (the reasons in between are on `tradingState$`), the period statistics, and an outage longer
 * than `degraded.maxOutageMs`, which trips the kill switch and, with policy `stop`, stops trading.
 */
export class DegradedModeWatch {
  private readonly outages: OutageWatch;
  private readonly modeLog: Subscription;

  constructor(
    private readonly o: {
      readonly conditions: TradingConditions;
      readonly clock: Clock;
      readonly config: DegradedConfig;
      readonly log: Logger;
      readonly trip: (reason: string) => void;
      readonly tradingStop: Pick<TradingStop, 'stop'>;
    },
  ) {
    this.outages = new OutageWatch(o.conditions, o.clock, o.config.maxOutageMs, (state) => this.outageTooLong(state));
    this.modeLog = this.logModeChanges();
  }

  /** Degraded periods so far and the longest that ended (ms). */
  get stats(): { readonly periods: number; readonly longestMs: number } {
    return this.outages.stats;
  }

  dispose(): void {
    this.outages.dispose();
    this.modeLog.unsubscribe();
  }

  private outageTooLong(state: TradingState): void {
    const { config, log } = this.o;
    const reason = `degraded for more than ${config.maxOutageMs} ms (${state.reasons.join('; ')})`;
    log.error(
      { reasons: state.reasons, maxOutageMs: config.maxOutageMs, policy: config.onMaxOutage },
      `outage too long: kill switch tripped; ${config.onMaxOutage === 'stop' ? 'stopping' : 'waiting for the feeds'}`,
    );
    this.o.trip(`outage: ${reason}`);
    if (config.onMaxOutage === 'stop') this.o.tradingStop.stop('outage_exceeded', reason);
  }

  private logModeChanges(): Subscription {
    const { conditions, log } = this.o;
    let previous = conditions.state;
    return conditions.state$.subscribe((state) => {
      if (state.mode === previous.mode) return;
      if (state.mode === 'degraded')
        log.warn(
          { reasons: state.reasons },
          'trading degraded: opening intents refused (FEED_DOWN), cancels and reduce-only go through',
        );
      else if (state.mode === 'trading' && previous.mode === 'degraded')
        log.info({ degradedMs: state.sinceMs - previous.sinceMs }, 'trading resumed: feeds up and reconciled');
      previous = state;
    });
  }
}
