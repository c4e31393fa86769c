import { describe, expect, it } from 'vitest';
import { screamingSnake } from '../../src/core/errorCodes.js';
import { PerpbotError } from '../../src/core/perpbotError.js';
import { VenueError } from '../../src/venue/venueError.js';

describe('error codes', () => {
  it.each([
    ['SignerNotAuthorized', 'SIGNER_NOT_AUTHORIZED'],
    ['MarketOrderTimeInForce', 'MARKET_ORDER_TIME_IN_FORCE'],
    ['ConnectionFailed', 'CONNECTION_FAILED'],
    ['approveSingle', 'APPROVE_SINGLE'],
    ['nonce', 'NONCE'],
  ])('%s becomes %s', (name, code) => {
    expect(screamingSnake(name)).toBe(code);
  });

  it('a venue error carries VENUE_ and its kind as its code', () => {
    const error = new VenueError({ httpStatus: 400, rawBody: 'FailedPrecondition: PlaceOrder reverted: NonceUsed' });
    expect(error.code).toBe('VENUE_NONCE_USED');
  });

  it('a code outside the union does not compile (the typecheck of `npm test` holds this)', () => {
    // @ts-expect-error 'NOT_A_CODE' is not an ErrorCode
    const error = new PerpbotError('made up', { code: 'NOT_A_CODE' });
    expect(error.code).toBe('NOT_A_CODE');
  });
});
