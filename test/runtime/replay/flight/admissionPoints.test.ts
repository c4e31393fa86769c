import { describe, expect, it } from 'vitest';
import { AdmissionPoints } from '../../../../src/runtime/replay/flight/admissionPoints.js';
import type { FlightRun } from '../../../../src/runtime/replay/flight/readFlight.js';

const T0 = Date.UTC(2026, 11, 6);

function flight(records: FlightRun['records']): FlightRun {
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

const frame = (t: number) => ({ type: 'frame', t, src: 'bot', raw: '{}' }) as const;

/** A cancel admitted at 10 whose request left at 40, a placement refused before admission, one cancelled while queued. */
const RECORDS: FlightRun['records'] = [
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
];

describe('AdmissionPoints: a replayed action is admitted where the recorded one was', () => {
  it('holds an action until the drive reaches its admitted record, among the records of the same millisecond', async () => {
    const points = new AdmissionPoints(flight(RECORDS));
    expect(points.hasAdmissions).toBe(true);
    const released: string[] = [];
    void points.hold('cancel-1')?.then(() => released.push('cancel-1'));
    for (const index of [0, 1]) points.reach(index);
    await Promise.resolve();
    // The frame of the same millisecond before it has been delivered; its own request's time (40) plays no part.
    expect(released).toEqual([]);
    points.reach(2);
    await Promise.resolve();
    expect(released).toEqual(['cancel-1']);
    expect(points.hold('cancel-1')).toBeUndefined();
  });

  it('holds an action never admitted until its end (its refusal, or its cancellation while queued)', async () => {
    const points = new AdmissionPoints(flight(RECORDS));
    const released: string[] = [];
    for (const id of ['place-2', 'place-3']) void points.hold(id)?.then(() => released.push(id));
    for (const index of [0, 1, 2, 3, 4]) points.reach(index);
    await Promise.resolve();
    expect(released).toEqual(['place-2']);
    points.reach(5);
    points.reach(6);
    await Promise.resolve();
    expect(released).toEqual(['place-2', 'place-3']);
  });

  it('does not hold what the recording does not name, and lets everything go when the recording ends', async () => {
    const points = new AdmissionPoints(flight(RECORDS));
    expect(points.hold('not-recorded')).toBeUndefined();
    const held = points.hold('cancel-1');
    expect(held).toBeDefined();
    points.finish();
    await expect(held).resolves.toBeUndefined();
    expect(points.hold('place-3')).toBeUndefined();
  });

  it('a recording made before admitted records were kept has none: the replay holds its actions by time', () => {
    const points = new AdmissionPoints(flight(RECORDS.filter((r) => r.type !== 'admitted')));
    expect(points.hasAdmissions).toBe(false);
  });
});
