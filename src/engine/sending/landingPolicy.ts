import type { LandingEvidence } from './landingEvidence.js';
import type { Endpoint } from '../signing/signedRequest.js';

/**
 * After `confirm_landed`, once a venue read has shown whether the first send took effect: accept
 * it, sign the action again with a new nonce, or report the outcome unknown. The old signed
 * request can no longer execute (its pair is consumed, its anchor passed or its deadline gone),
 * and only actions that set a value (a cancel, leverage, margin mode) are signed again, because
 * one more execution of those changes nothing; a placement or an isolated-margin change (an
 * amount) is never repeated on a guess, and "cannot tell" is never reported as accepted. A cancel
 * whose order left the book by a fill ends as a cancel that found its target finished.
 */
export type LandingAction = 'accept' | 'resign_new_nonce' | 'report_unknown' | 'target_finished';

export interface LandingDecision {
  readonly action: LandingAction;
  readonly reason: string;
  readonly hints: readonly string[];
}

/** New signatures per intent after reads showed the action had not taken effect, before reporting unknown. */
export const MAX_LANDING_RESIGNS = 2;

const REPEATABLE: ReadonlySet<Endpoint> = new Set([
  'cancelOrder',
  'cancelAllOrders',
  'updateLeverage',
  'updateMarginMode',
]);

const UNKNOWN_HINTS: Readonly<Record<Endpoint, readonly string[]>> = {
  placeOrder: [
    'the order may exist: the orders channel or the next reconciliation will show it; do not place it again before then',
  ],
  cancelOrder: ['read the open orders before cancelling again'],
  cancelAllOrders: ['read the open orders of the market; cancel again what should not be open'],
  updateLeverage: ['read the leverage from GET /v1/account/position once a position is open'],
  updateMarginMode: ['read the margin mode from GET /v1/account/position once a position is open'],
  updateIsolatedMargin: [
    'read isolated_usdc_balance (GET /v1/account/position) before adjusting again: a repeat would move it twice',
  ],
};

export function classifyLanding(
  endpoint: Endpoint,
  evidence: LandingEvidence,
  context: { readonly resigns: number },
): LandingDecision {
  switch (evidence.kind) {
    case 'in_effect':
      return { action: 'accept', reason: `the first send took effect: ${evidence.detail}`, hints: [] };
    case 'target_finished':
      return { action: 'target_finished', reason: `nothing left to cancel: ${evidence.detail}`, hints: [] };
    case 'cannot_tell':
      return {
        action: 'report_unknown',
        reason: `whether it took effect is unknown: ${evidence.detail}`,
        hints: UNKNOWN_HINTS[endpoint],
      };
    case 'not_in_effect':
      if (!REPEATABLE.has(endpoint)) {
        return {
          action: 'report_unknown',
          reason: `${evidence.detail}, and repeating it could act twice`,
          hints: UNKNOWN_HINTS[endpoint],
        };
      }
      if (context.resigns >= MAX_LANDING_RESIGNS) {
        return {
          action: 'report_unknown',
          reason: `${evidence.detail}, still after ${context.resigns} new signatures`,
          hints: UNKNOWN_HINTS[endpoint],
        };
      }
      return {
        action: 'resign_new_nonce',
        reason: `${evidence.detail}: it did not take effect; signing it again with a new nonce`,
        hints: [],
      };
  }
}
