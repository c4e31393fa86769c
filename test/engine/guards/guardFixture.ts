import type { PositionView } from '../../../src/engine/tracking/accountState.js';
import { DEFAULT_ENGINE_CONFIG, type GuardConfig } from '../../../src/engine/config/engineConfig.js';
import { fullBucket } from '../../../src/engine/guards/actionRateLimit.js';
import type { GuardState, GuardVerdict } from '../../../src/engine/guards/guardState.js';
import { ARMED_KILL_SWITCH } from '../../../src/engine/guards/killSwitch.js';
import type { MarginMode } from '../../../src/engine/intents/intents.js';

/** Guard limits small enough to read in a table: 1000 USDC per order, 2000 per position. */
export const limits: GuardConfig = {
  ...DEFAULT_ENGINE_CONFIG.guards,
  maxOrderNotional: '1000',
  maxPositionNotional: '2000',
  maxPositionNotionalByMarket: { '2': '100' },
  maxOpenOrders: 3,
  actionsPerSecond: 2,
  actionBurst: 2,
  leverageUpdateIntervalMs: 1000,
  killSwitchMaxLoss: '50',
};

export const NOW = 1_700_000_000_000;

export function guardState(
  over: {
    positions?: [number, PositionView][];
    marginModes?: [number, MarginMode][];
    openOrders?: [number, number][];
    inFlight?: [number, number][];
    marks?: [number, string][];
    nowMs?: number;
  } & Partial<Pick<GuardState, 'actionBucket' | 'lastLeverageUpdateMs' | 'leverageUpdateInFlight' | 'killSwitch'>> = {},
): GuardState {
  return {
    positions: new Map(over.positions ?? []),
    marginModes: new Map(over.marginModes ?? []),
    openOrders: new Map(over.openOrders ?? []),
    inFlight: new Map(over.inFlight ?? []),
    marks: new Map(
      over.marks ?? [
        [1, '100'],
        [2, '10'],
      ],
    ),
    nowMs: over.nowMs ?? NOW,
    actionBucket: over.actionBucket ?? fullBucket(limits, NOW),
    lastLeverageUpdateMs: over.lastLeverageUpdateMs,
    leverageUpdateInFlight: over.leverageUpdateInFlight ?? false,
    killSwitch: over.killSwitch ?? ARMED_KILL_SWITCH,
  };
}

/** 'allow', 'wait', 'close_first' or the refusing rule, for compact tables. */
export function outcome(verdict: GuardVerdict): string {
  return verdict.kind === 'refuse' ? verdict.refusal.rule : verdict.kind;
}

export const base = { intentId: 'i-1', strategy: 'test', marketId: 1 } as const;
