import type { SimEvent } from '../simContext.js';

/** Where a batch goes: the hub's fan-out. */
export interface EventSink {
  publish(events: readonly SimEvent[]): void;
}

const RESOLVED = Promise.resolve();
const neverRejects = (): void => undefined;

/**
 * Events arrive one by one while the simulator mines; they are published at the end of the
 * synchronous run that produced them (one microtask later), so one transaction's book changes
 * become one update.
 */
export class SimEventBatcher {
  private pending: SimEvent[] = [];

  constructor(
    private readonly sink: EventSink,
    private readonly onError: (error: unknown) => void,
  ) {}

  push(event: SimEvent): void {
    // A promise reaction, not queueMicrotask: the same place in the microtask queue, without the
    // AsyncResource Node wraps every queueMicrotask callback in (its init, before, after and
    // destroy hooks ran for every batch of a replay). RESOLVED never rejects; a throw from flush
    // escapes as an unhandled rejection, as it escaped queueMicrotask as an uncaught exception.
    if (this.pending.length === 0) void RESOLVED.then(this.flush, neverRejects);
    this.pending.push(event);
  }

  // A bound field rather than a method: it is handed to the microtask queue once per batch.
  private readonly flush = (): void => {
    const events = this.pending;
    this.pending = [];
    try {
      this.sink.publish(events);
    } catch (error) {
      // A fan-out failure must cost these frames only, never the simulator.
      this.onError(error);
    }
  };
}
