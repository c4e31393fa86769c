import { describe, expect, it } from 'vitest';
import type { LandingEvidence } from '../../../src/engine/sending/landingEvidence.js';
import { classifyLanding, MAX_LANDING_RESIGNS, type LandingAction } from '../../../src/engine/sending/landingPolicy.js';
import type { Endpoint } from '../../../src/engine/signing/signedRequest.js';

describe('classifyLanding', () => {
  const seen: LandingEvidence = { kind: 'in_effect', detail: 'seen' };
  const absent: LandingEvidence = { kind: 'not_in_effect', detail: 'absent' };
  const unclear: LandingEvidence = { kind: 'cannot_tell', detail: 'unclear' };
  it.each<[Endpoint, LandingEvidence, number, LandingAction]>([
    ['placeOrder', seen, 0, 'accept'],
    ['placeOrder', unclear, 0, 'report_unknown'],
    // A placement is never repeated on a guess: it could trade twice.
    ['placeOrder', absent, 0, 'report_unknown'],
    ['cancelOrder', seen, 0, 'accept'],
    ['cancelOrder', absent, 0, 'resign_new_nonce'],
    ['cancelOrder', absent, MAX_LANDING_RESIGNS, 'report_unknown'],
    ['cancelOrder', unclear, 0, 'report_unknown'],
    ['cancelAllOrders', unclear, 0, 'report_unknown'],
    ['updateLeverage', seen, 0, 'accept'],
    ['updateLeverage', absent, 1, 'resign_new_nonce'],
    ['updateLeverage', unclear, 0, 'report_unknown'],
    ['updateMarginMode', absent, 0, 'resign_new_nonce'],
    ['updateMarginMode', unclear, 0, 'report_unknown'],
    // An amount, not a value: a repeat would move the balance twice.
    ['updateIsolatedMargin', absent, 0, 'report_unknown'],
    ['updateIsolatedMargin', unclear, 0, 'report_unknown'],
  ])('%s, %o after %i re-signs -> %s', (endpoint, evidence, resigns, action) => {
    const decision = classifyLanding(endpoint, evidence, { resigns });
    expect(decision.action).toBe(action);
    expect(decision.reason).toContain(evidence.detail);
    if (action === 'report_unknown') expect(decision.hints.length).toBeGreaterThan(0);
  });
});
