import { describe, expect, it } from 'vitest';
import { placeOrderRequestSchema } from '../../../src/venue/schemas/restOrders.js';
import { schemaIssues, VenueSchemaError } from '../../../src/venue/rest/venueSchemaError.js';

describe('VenueSchemaError', () => {
  it('lists at most five issue paths and never the values', () => {
    const secret = `0x${'ab'.repeat(65)}`;
    const parsed = placeOrderRequestSchema.safeParse({
      market_id: -1,
      size_steps: -1,
      price_ticks: -1,
      side: 9,
      post_only: 'no',
      reduce_only: 'no',
      stp_mode: 9,
      permit: { signature: secret },
    });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const issues = schemaIssues(parsed.error);
    expect(issues.length).toBeGreaterThan(5);
    const error = new VenueSchemaError({ endpoint: 'POST /v1/orders/place', direction: 'request', issues });
    expect(error.message).toMatch(/^POST \/v1\/orders\/place: request body does not match the schema: market_id: /);
    expect(error.message).toContain(`and ${issues.length - 5} more`);
    expect(error.message).not.toContain(secret);
    expect(error.code).toBe('VENUE_REQUEST_INVALID');
    expect(error.hints).toEqual(['fix the request fields; nothing was sent']);
  });

  it('says an unreadable answer to an action still means it executed', () => {
    const error = new VenueSchemaError({
      endpoint: 'POST /v1/orders/cancel',
      direction: 'response',
      issues: [{ path: 'data.success', message: 'expected boolean' }],
      executed: true,
    });
    expect(error.code).toBe('VENUE_RESPONSE_INVALID');
    expect(error.hints[0]).toMatch(/the action executed/);
    expect(error.issues).toEqual([{ path: 'data.success', message: 'expected boolean' }]);
  });
});
