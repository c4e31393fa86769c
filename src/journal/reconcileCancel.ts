import { cancel } from '../engine/intents/intentBuilders.js';
import type { CancelIntent } from '../engine/intents/intents.js';

/** The cancel of a venue order a reconciliation found unknown under policy `cancel`. */
export function reconcileCancel(
  target: { readonly orderId: string; readonly marketId: number },
  nowMs: number,
): CancelIntent {
  return cancel({
    intentId: `reconcile-cancel-${target.orderId}-${nowMs}`,
    strategy: 'reconcile',
    marketId: target.marketId,
    target: { orderId: target.orderId },
  });
}
