import { SELECTOR_PROFILES, type SelectorTable } from '../../protocol/selectors.js';
import type { NonTradingConfig } from './configSchema.js';

/** The signed-action selector strings of the configured profile (`venue.selectors`: spec or rise). */
export function selectorsOf(config: NonTradingConfig): SelectorTable {
  return SELECTOR_PROFILES[config.venue.selectors];
}
