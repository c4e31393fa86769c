import { describe, expect, it } from 'vitest';
import { malformedRequests } from '../../../../../src/runtime/diagnostics/chaos/audit/malformedRequests.js';

describe('malformedRequests', () => {
  it('holds when the venue refused no signed action as malformed', () => {
    const result = malformedRequests({ signerNotAuthorized: 0, invalidArgument: 0, samples: [] });
    expect(result.ok).toBe(true);
    expect(result.measured).toBe('0 SignerNotAuthorized, 0 InvalidArgument');
  });

  it('fails on either count and shows what the venue said', () => {
    const signer = malformedRequests({
      signerNotAuthorized: 1,
      invalidArgument: 0,
      samples: ['POST /v1/orders/place: FailedPrecondition: PlaceOrder reverted: SignerNotAuthorized(0xabc)'],
    });
    expect(signer.ok).toBe(false);
    expect(signer.detail).toContain('SignerNotAuthorized(0xabc)');
    expect(malformedRequests({ signerNotAuthorized: 0, invalidArgument: 2, samples: [] }).ok).toBe(false);
  });
});
