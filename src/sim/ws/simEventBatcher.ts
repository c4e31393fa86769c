import type { SimEvent } from '../simContext.js';

/** Where a batch goes: the hub's fan-out. */
export interface EventSink {
  publish(events: readonly SimEvent[]): void;
}

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
    if (this.pending.length === 0) queueMicrotask(this.flush);
    this.pending.push(event);
  }

  // A bound field rather than a method: it is handed to queueMicrotask once per batch.
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
