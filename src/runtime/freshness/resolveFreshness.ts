import { PerpbotError } from '../../core/perpbotError.js';
import { FRESHNESS_CHANNELS, type FreshnessBudget, type FreshnessChannel } from '../../strategy/strategyDefinition.js';

const MAX_BUDGET_MS = 3_600_000;

/**
 * A strategy's freshness budget: what its definition declares, each stream overridden by its
 * config entry's `freshness:`. A definition's budget is code, not config, so it is checked here:
 * an unknown stream or a budget that is not a whole number of ms refuses to start.
 */
export function resolveFreshness(
  strategy: string,
  declared: unknown,
  override: Readonly<Partial<Record<FreshnessChannel, number | undefined>>> | undefined,
): FreshnessBudget {
  const budget: Partial<Record<FreshnessChannel, number>> = {};
  if (declared !== undefined) {
    if (typeof declared !== 'object' || declared === null) throw invalid(strategy, 'freshness', declared);
    for (const [channel, ms] of Object.entries(declared)) {
      if (!(FRESHNESS_CHANNELS as readonly string[]).includes(channel)) {
        throw new PerpbotError(
          `strategy ${strategy} declares a freshness budget on "${channel}", which is not a stream the bot can time`,
          {
            code: 'STRATEGY_FRESHNESS',
            details: { strategy, channel },
            hints: [`declare one of ${FRESHNESS_CHANNELS.join(', ')}`],
          },
        );
      }
      if (ms === undefined) continue;
      if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 1 || ms > MAX_BUDGET_MS)
        throw invalid(strategy, `freshness.${channel}`, ms);
      budget[channel as FreshnessChannel] = ms;
    }
  }
  for (const channel of FRESHNESS_CHANNELS) {
    const ms = override?.[channel];
    if (ms !== undefined) budget[channel] = ms;
  }
  return budget;
}

function invalid(strategy: string, field: string, value: unknown): PerpbotError {
  return new PerpbotError(
    `strategy ${strategy} declares ${field} = ${JSON.stringify(value)}; expected whole milliseconds from 1 to ${MAX_BUDGET_MS}`,
    {
      code: 'STRATEGY_FRESHNESS',
      details: { strategy, field },
      hints: ['write e.g. freshness: { book: 2000, mark: 1000 } in the strategy definition'],
    },
  );
}
