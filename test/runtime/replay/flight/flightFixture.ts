import type { FlightRun } from '../../../../src/runtime/replay/flight/readFlight.js';

export const T0 = Date.UTC(2026, 11, 6);

export function flightOf(records: FlightRun['records']): FlightRun {
  return {
    header: {
      type: 'header',
      version: 1,
      run: 'r',
      segment: 1,
      startedAt: T0,
      venue: { profile: 'sim', restUrl: 'http://sim.invalid', wsUrl: 'ws://sim.invalid' },
      markets: [1],
      channels: [],
      flight: { account: '0x01', signer: '0x01', runId: 'run' },
    },
    records,
  };
}

export const frame = (t: number): FlightRun['records'][number] => ({ type: 'frame', t, src: 'bot', raw: '{}' });

/**
 * A cancel admitted at 10 whose request left at 40 (the event loop was busy between), a placement
 * refused before admission, one cancelled while queued that ended with its outcome at 50.
 */
export const RECORDS: FlightRun['records'] = [
  { type: 'intent', t: T0 + 5, intent: { intentId: 'cancel-1', kind: 'cancel' } },
  frame(T0 + 10),
  { type: 'admitted', t: T0 + 10, intentId: 'cancel-1' },
  frame(T0 + 10),
  { type: 'order', t: T0 + 20, event: { type: 'refused', intentId: 'place-2' } },
  { type: 'outcome', t: T0 + 20, outcome: { type: 'refused', intentId: 'place-2' } },
  { type: 'order', t: T0 + 30, event: { type: 'cancelled', intentId: 'place-3' } },
  {
    type: 'rest',
    t: T0 + 45,
    sentAt: T0 + 40,
    method: 'POST',
    path: '/v1/orders/cancel',
    body: '{}',
    status: 200,
    answer: '{}',
  },
  { type: 'outcome', t: T0 + 45, outcome: { type: 'accepted', intentId: 'cancel-1' } },
  { type: 'outcome', t: T0 + 50, outcome: { type: 'refused', intentId: 'place-3' } },
];
