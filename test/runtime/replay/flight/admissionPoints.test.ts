import { describe, expect, it } from 'vitest';
import { admissionPoints } from '../../../../src/runtime/replay/flight/admissionPoints.js';
import { flightOf, RECORDS } from './flightFixture.js';

describe('admissionPoints: where the recorded engine admitted each action', () => {
  it('is the admitted record: a cancel admitted at 10 whose request left at 40 is taken at its admission', () => {
    expect(admissionPoints(flightOf(RECORDS)).get('cancel-1')).toBe(2);
  });

  it("is its own run's end for an action never admitted: its refusal, not the cancelled event a cancel of it made while it waited", () => {
    const points = admissionPoints(flightOf(RECORDS));
    expect(points.get('place-2')).toBe(4);
    // place-3 was cancelled while queued (index 6) and went on waiting for its strategy's cancels until its outcome.
    expect(points.get('place-3')).toBe(9);
  });

  it('is empty for a recording made before admitted records were kept (its actions are held by time)', () => {
    expect(admissionPoints(flightOf(RECORDS.filter((r) => r.type !== 'admitted'))).size).toBe(0);
  });
});
