import type { BracketIntent, ProtectIntent } from '../intents/intents.js';
import { refuse, ThrownRefusal, type Refusal } from '../intents/refusal.js';
import type { ProtectionSpec } from './protectionLegs.js';

/** What a protect or bracket intent asks for: no protection, or legs at these distances. */
export type AskedProtection = { readonly off: true } | { readonly off: false; readonly spec: ProtectionSpec };

// The YAML's `protection:` bounds: a stop 100% away is no stop, and a short's take-profit cannot pass zero.
const MIN_BPS = 1;
const MAX_BPS = 9_999;

/**
 * The protection a protect or bracket intent asks for, checked field by field (plugins are plain
 * JS at runtime, so every field is checked, not trusted): a refusal names the field, its value
 * and what to send instead.
 */
export function askedProtection(
  intent: ProtectIntent | BracketIntent,
  marketKnown: boolean,
): AskedProtection | Refusal {
  try {
    if (!marketKnown)
      refuse(
        'market_id',
        intent.marketId,
        `market ${intent.marketId} is not one of the venue's markets`,
        'protect a market the strategy trades (ctx.markets)',
      );
    if (intent.kind === 'bracket') checkEntry(intent);
    else if (intent.off !== undefined && typeof intent.off !== 'boolean')
      refuse('protection', intent.off, 'off must be true or false');
    if (intent.kind === 'protect' && intent.off === true) return offAlone(intent);
    return { off: false, spec: specOf(intent) };
  } catch (error) {
    if (error instanceof ThrownRefusal) return error.refusal;
    throw error;
  }
}

function offAlone(intent: ProtectIntent): AskedProtection {
  const { stopLossBps, takeProfitBps, trigger } = intent;
  if (stopLossBps !== undefined || takeProfitBps !== undefined || trigger !== undefined)
    refuse(
      'protection',
      { off: true, stopLossBps, takeProfitBps, trigger },
      'off: true takes no stopLossBps, takeProfitBps or trigger',
      'send off alone to stop protecting, or leave off out to change the protection',
    );
  return { off: true };
}

function specOf(intent: ProtectIntent | BracketIntent): ProtectionSpec {
  const stopLossBps = checkedBps('stopLossBps', intent.stopLossBps);
  const takeProfitBps = checkedBps('takeProfitBps', intent.takeProfitBps);
  if (stopLossBps === undefined && takeProfitBps === undefined)
    refuse(
      'protection',
      'neither',
      'expected stopLossBps, takeProfitBps or both',
      intent.kind === 'protect'
        ? 'to stop protecting, send ctx.intents.unprotect({ marketId })'
        : 'a bracket needs at least one leg; for an entry alone use placeLimit or placeMarket',
    );
  const trigger = intent.trigger ?? 'mark';
  if (trigger !== 'mark' && trigger !== 'last')
    refuse('protection', trigger, `trigger must be "mark" or "last", got ${String(trigger)}`);
  return { stopLossBps, takeProfitBps, trigger };
}

function checkedBps(field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN_BPS || value > MAX_BPS)
    refuse(
      'protection',
      value,
      `${field} must be a whole number of basis points from ${MIN_BPS} to ${MAX_BPS}`,
      `e.g. ${field}: 50 is 0.5% from the average entry`,
    );
  return value;
}

/** A bracket's entry opens the position it protects: a placement of the same strategy and market. */
function checkEntry(intent: BracketIntent): void {
  const entry: unknown = intent.entry;
  if (typeof entry !== 'object' || entry === null) refuse('protection', entry, 'a bracket needs an entry placement');
  const { kind, strategy, marketId, reduceOnly } = entry as Partial<BracketIntent['entry']>;
  if (kind !== 'placeLimit' && kind !== 'placeMarket')
    refuse(
      'protection',
      kind,
      `a bracket's entry must be a placeLimit or placeMarket intent, got ${String(kind)}`,
      'build it with ctx.intents.placeLimit(...) or ctx.intents.placeMarket(...)',
    );
  if (strategy !== intent.strategy || marketId !== intent.marketId)
    refuse(
      'protection',
      { strategy, marketId },
      `a bracket's entry must be the bracket's strategy (${intent.strategy}) and market (${intent.marketId})`,
      "build the entry with the strategy's own ctx.intents",
    );
  if (reduceOnly === true)
    refuse(
      'protection',
      'reduceOnly',
      "a bracket's entry is reduce-only: it opens no position to protect",
      'use protect for a position the strategy already holds',
    );
}
