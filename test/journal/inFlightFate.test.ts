import { describe, expect, it } from 'vitest';
import { clientOrderIdOf, inFlightFate } from '../../src/journal/inFlightFate.js';
import type { InFlightIntent, JournalRequest } from '../../src/journal/journalRows.js';

const request = (anchor: bigint, bit: number, deadline: number): JournalRequest => ({
  endpoint: 'placeOrder',
  body: { client_order_id: '7', permit: { deadline, nonce_anchor: String(anchor), nonce_bitmap_index: bit } },
  nonce: { anchor, bit },
  attempt: 1,
  atMs: 0,
});
const intent = (...requests: JournalRequest[]): InFlightIntent => ({
  intentId: 'i',
  runId: 'r',
  strategy: 's',
  kind: 'placeLimit',
  marketId: 1,
  receivedMs: 0,
  intent: {},
  requests,
});
const venue = { anchor: 10n, bitmap: 0b101n };
const NOW = 1_000;

describe('inFlightFate', () => {
  it.each([
    { name: 'a pair consumed in the current anchor executed', requests: [request(10n, 2, NOW - 5)], kind: 'executed' },
    {
      name: 'an unconsumed pair of the current anchor can land until its deadline',
      requests: [request(10n, 1, NOW + 5)],
      kind: 'pending',
    },
    {
      name: 'a pair of the next anchor can land until its deadline',
      requests: [request(11n, 0, NOW)],
      kind: 'pending',
    },
    {
      name: 'an unconsumed pair past its deadline never executed',
      requests: [request(10n, 1, NOW - 1)],
      kind: 'not_executed',
    },
    { name: 'a pair of an older anchor cannot be read', requests: [request(9n, 1, NOW - 1)], kind: 'unknowable' },
    {
      name: 'a re-signed pair that can still land outranks an older anchor',
      requests: [request(9n, 1, NOW - 1), request(10n, 3, NOW + 1)],
      kind: 'pending',
    },
    {
      name: 'an executed re-sign outranks everything',
      requests: [request(9n, 1, NOW + 9), request(10n, 0, NOW + 9)],
      kind: 'executed',
    },
    { name: 'nothing sent never executed', requests: [], kind: 'not_executed' },
  ])('$name', ({ requests, kind }) => {
    expect(inFlightFate(intent(...requests), venue, NOW).kind).toBe(kind);
  });

  it('retries just after the latest deadline of the pairs that can still land', () => {
    expect(inFlightFate(intent(request(10n, 1, NOW + 5), request(11n, 0, NOW + 7)), venue, NOW)).toMatchObject({
      kind: 'pending',
      retryAtMs: (NOW + 8) * 1000,
    });
  });

  it('cannot read a request sent without a nonce (JWT)', () => {
    expect(inFlightFate(intent({ endpoint: 'placeOrder', body: {}, attempt: 1, atMs: 0 }), venue, NOW).kind).toBe(
      'unknowable',
    );
  });

  it('finds the client order id in the journaled bodies', () => {
    expect(clientOrderIdOf(intent(request(10n, 1, NOW)))).toBe('7');
    expect(clientOrderIdOf(intent())).toBeUndefined();
  });
});
