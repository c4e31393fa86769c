import { describe, expect, it } from 'vitest';
import { logRestRetry } from '../../../../src/runtime/bot/startup/logRestRetry.js';

describe('logRestRetry', () => {
  it('logs each wait of the REST client as one warning saying which read, which attempt, how long and why', () => {
    const lines: { object: object; message: string }[] = [];
    const onRetry = logRestRetry({ warn: (object, message) => lines.push({ object, message }) });
    onRetry({
      endpoint: 'GET /v1/markets',
      attempt: 2,
      delayMs: 2_160,
      reason: 'GET /v1/markets failed with HTTP 503: Unavailable',
    });
    expect(lines).toEqual([
      {
        object: {
          endpoint: 'GET /v1/markets',
          attempt: 2,
          delayMs: 2_160,
          reason: 'GET /v1/markets failed with HTTP 503: Unavailable',
        },
        message: 'waiting for the venue: GET /v1/markets failed (attempt 2, retry in 2.2 s)',
      },
    ]);
  });
});
