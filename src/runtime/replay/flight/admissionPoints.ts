import type { FlightRun } from './readFlight.js';

/**
 * Where in a flight recording the recorded engine admitted each action, by intent id: its
 * `admitted` record (the moment its rate limit counted it), or, for one never admitted, its end
 * (its first outcome, or its order's `refused` or `cancelled` event). The replay holds each action
 * until the drive reaches that record (`hold`, `reach`), so it is admitted among the frames and
 * answers exactly where the recorded one was, at the time its rate limit counted it: an action
 * admitted even a few milliseconds late (a cancel held to its request, which under load left many
 * milliseconds after its admission) leaves the replay's rate limit behind the recorded one, and the
 * actions after it wait where the recorded ones did not.
 *
 * Only recordings with `admitted` records (`hasAdmissions`); older ones are held by time
 * (`admissionTimes`).
 */
export class AdmissionPoints {
  /** Record index by intent id. */
  private readonly points = new Map<string, number>();
  private readonly waiting = new Map<number, (() => void)[]>();
  private reached = -1;
  readonly hasAdmissions: boolean;

  constructor(flight: FlightRun) {
    const ends = new Map<string, number>();
    flight.records.forEach((record, index) => {
      if (record.type === 'admitted') firstOf(this.points, record.intentId, index);
      else if (record.type === 'outcome') firstOf(ends, stringField(record.outcome, 'intentId'), index);
      else if (record.type === 'order' && (record.event['type'] === 'refused' || record.event['type'] === 'cancelled'))
        firstOf(ends, stringField(record.event, 'intentId'), index);
    });
    this.hasAdmissions = this.points.size > 0;
    for (const [id, index] of ends) if (!this.points.has(id)) this.points.set(id, index);
  }

  /** Waits until the drive reaches the action's record; undefined when it has (or the action is not recorded). */
  hold(intentId: string): Promise<void> | undefined {
    const index = this.points.get(intentId);
    if (index === undefined || index <= this.reached) return undefined;
    return new Promise((resolve) => {
      const list = this.waiting.get(index) ?? [];
      list.push(resolve);
      this.waiting.set(index, list);
    });
  }

  /** The drive reached record `index`: the actions held until it go on. */
  reach(index: number): void {
    this.reached = index;
    const list = this.waiting.get(index);
    if (list === undefined) return;
    this.waiting.delete(index);
    for (const resolve of list) resolve();
  }

  /** The recording ended: nothing is held any more. */
  finish(): void {
    this.reached = Number.POSITIVE_INFINITY;
    for (const list of this.waiting.values()) for (const resolve of list) resolve();
    this.waiting.clear();
  }
}

function firstOf(map: Map<string, number>, id: string | undefined, index: number): void {
  if (id !== undefined && !map.has(id)) map.set(id, index);
}

function stringField(value: Record<string, unknown>, name: string): string | undefined {
  const field = value[name];
  return typeof field === 'string' ? field : undefined;
}
