import { describe, expect, it } from 'vitest';
import { strategyTradingState } from '../../../src/engine/admission/strategyTradingState.js';
import type { TradingState } from '../../../src/engine/admission/tradingConditions.js';

const trading: TradingState = { mode: 'trading', reasons: [], sinceMs: 100, reconciling: false };
const tripped = { tripped: true, reason: 'loss limit reached: PnL -12 <= -10', trippedAtMs: 500 };

describe('strategyTradingState', () => {
  it("is the account's while the strategy's own kill switch is armed (or it has none)", () => {
    expect(strategyTradingState(trading, undefined, 900)).toBe(trading);
    expect(strategyTradingState(trading, { tripped: false }, 900)).toBe(trading);
  });

  it('is halted, since the trip, while its own kill switch is tripped and the account trades or is degraded', () => {
    expect(strategyTradingState(trading, tripped, 900)).toEqual({
      mode: 'halted',
      reasons: ['strategy kill switch tripped (loss limit reached: PnL -12 <= -10)'],
      sinceMs: 500,
      reconciling: false,
    });
    const degraded: TradingState = { ...trading, mode: 'degraded', reasons: ['private feeds down (x)'] };
    expect(strategyTradingState(degraded, tripped, 900)).toMatchObject({
      mode: 'halted',
      reasons: ['strategy kill switch tripped (loss limit reached: PnL -12 <= -10)', 'private feeds down (x)'],
    });
  });

  it('leaves a halted or stopped account as it is', () => {
    const halted: TradingState = { ...trading, mode: 'halted', reasons: ['kill switch tripped (manual)'] };
    const stopped: TradingState = { ...trading, mode: 'stopped', reasons: ['signer revoked'] };
    expect(strategyTradingState(halted, tripped, 900)).toBe(halted);
    expect(strategyTradingState(stopped, tripped, 900)).toBe(stopped);
  });
});
