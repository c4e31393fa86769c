import { describe, expect, it } from 'vitest';
import { nonceErrors } from '../../../../../src/runtime/diagnostics/chaos/audit/nonceErrors.js';
import { failedIntentOf } from '../../../../../src/runtime/diagnostics/chaos/journalTruth.js';

describe('nonceErrors', () => {
  it('holds when no failed outcome carries a nonce error kind', () => {
    const failed = [
      failedIntentOf(
        'i-1',
        JSON.stringify({
          type: 'failed',
          error: { code: 'VENUE_REFUSED', kind: 'Unknown', message: 'OrderNotFound(7)' },
        }),
      ),
    ];
    const result = nonceErrors(failed, 40);
    expect(result.ok).toBe(true);
    expect(result.measured).toBe('0 of 40 intents');
  });

  it('fails on each of NonceUsed, InvalidNonceAnchor and InvalidNonceIndex, naming the intent', () => {
    for (const kind of ['NonceUsed', 'InvalidNonceAnchor', 'InvalidNonceIndex']) {
      const failed = [
        failedIntentOf(
          'i-7',
          JSON.stringify({ type: 'failed', error: { code: 'VENUE_REFUSED', kind, message: `${kind}(5)` } }),
        ),
      ];
      const result = nonceErrors(failed, 10);
      expect(result.ok, kind).toBe(false);
      expect(result.detail).toContain(`i-7 (${kind}: ${kind}(5))`);
      expect((result.data['byKind'] as Record<string, number>)[kind]).toBe(1);
    }
  });

  it('reads an outcome that is not JSON as a failure without a kind', () => {
    expect(failedIntentOf('i-9', 'not json')).toEqual({ intentId: 'i-9', code: '', message: '' });
  });
});
