import { decimalToFixed, isDecimalString } from '../../core/decimal.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import { checkInt } from '../../core/integerRange.js';
import type { PreTradeConfig } from '../config/engineConfig.js';
import type { AdjustIsolatedMarginIntent, SetLeverageIntent, SetMarginModeIntent } from '../intents/intents.js';
import type { MarketRules } from './marketRules.js';
import { refuse } from '../intents/refusal.js';
import { MARGIN_MODE_CODE, type WireAction } from './wireAction.js';

/** Leverage, margin-mode and isolated-margin intents to their wire values. */

/** 1 to min(255, the market's max_leverage rounded down); the same integer is sent and signed. */
export function checkSetLeverage(intent: SetLeverageIntent, rules: MarketRules): WireAction {
  const max = rules.maxLeverage;
  if (max === 'malformed')
    refuse('market_config', rules.maxLeverageText, 'the market reports a malformed max_leverage');
  const leverage = intent.leverage;
  if (!Number.isSafeInteger(leverage) || leverage < 1 || leverage > max) {
    refuse('leverage', leverage, `leverage must be a whole number from 1 to ${max}`);
  }
  return { action: 'updateLeverage', market_id: intent.marketId, leverage };
}

export function checkSetMarginMode(intent: SetMarginModeIntent): WireAction {
  const code = (MARGIN_MODE_CODE as Record<string, 0 | 1 | undefined>)[intent.marginMode];
  if (code === undefined) refuse('margin_mode', intent.marginMode, "margin mode must be 'cross' or 'isolated'");
  if (intent.policy !== 'refuse' && intent.policy !== 'close_first') {
    refuse('margin_mode', intent.policy, "margin-mode policy must be 'refuse' or 'close_first'");
  }
  return { action: 'updateMarginMode', market_id: intent.marketId, margin_mode: code };
}

/** Exact: an amount with more decimals than the fixed-point scale is refused, never rounded. */
export function checkAdjustIsolatedMargin(intent: AdjustIsolatedMarginIntent, config: PreTradeConfig): WireAction {
  const text = intent.amount;
  if (!isDecimalString(text))
    refuse('isolated_margin_amount', text, 'amount must be a signed decimal string such as "-12.5"');
  let amount: bigint;
  try {
    amount = checkInt(decimalToFixed(text, config.isolatedMarginDecimals, 'amount'), 128, 'amount');
  } catch (error) {
    if (!(error instanceof InvalidValueError)) throw error;
    refuse(
      'isolated_margin_amount',
      text,
      `amount must be an int128 with at most ${config.isolatedMarginDecimals} decimals`,
    );
  }
  if (amount === 0n)
    refuse('isolated_margin_amount', text, 'amount must not be 0: positive adds margin, negative removes it');
  return { action: 'updateIsolatedMargin', market_id: intent.marketId, amount };
}
