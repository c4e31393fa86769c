import type { FlightRun } from './readFlight.js';

/**
 * Where in a flight recording the recorded engine admitted each action, as a record index by
 * intent id: its `admitted` record (the moment its rate limit counted it), or, for one never
 * admitted, the end its own run made (its `refused` order event or its outcome; not the
 * `cancelled` a cancel of it made while it was queued: it went on waiting, for its strategy's
 * earlier cancels, until its outcome). The replay takes each action there (`ReplayCursor.step`), so
 * it is admitted among the frames and answers where the recorded one was, at the time its rate
 * limit counted it: an action admitted even a few milliseconds late (a cancel held to its request,
 * which under load left many milliseconds after its admission) leaves the replay's rate limit
 * behind the recorded one, and the actions after it wait where the recorded ones did not.
 *
 * Empty for a recording made before `admitted` records were kept: its actions are held by time
 * (`admissionTimes`).
 */
export function admissionPoints(flight: FlightRun): ReadonlyMap<string, number> {
  const admitted = new Map<string, number>();
  const ends = new Map<string, number>();
  flight.records.forEach((record, index) => {
    if (record.type === 'admitted') firstOf(admitted, record.intentId, index);
    else if (record.type === 'outcome') firstOf(ends, stringField(record.outcome, 'intentId'), index);
    else if (record.type === 'order' && record.event['type'] === 'refused')
      firstOf(ends, stringField(record.event, 'intentId'), index);
  });
  if (admitted.size === 0) return admitted;
  for (const [id, index] of ends) if (!admitted.has(id)) admitted.set(id, index);
  return admitted;
}

function firstOf(map: Map<string, number>, id: string | undefined, index: number): void {
  if (id !== undefined && !map.has(id)) map.set(id, index);
}

function stringField(value: Record<string, unknown>, name: string): string | undefined {
  const field = value[name];
  return typeof field === 'string' ? field : undefined;
}
