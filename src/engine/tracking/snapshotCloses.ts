import { MarkedChanges, type ReadMarks } from './readMarks.js';

/**
 * Which of our orders a snapshot of the open orders may close when it no longer lists them:
 * - none while held: from a lost connection until the reconciliation that reads the order history,
 *   an order missing from a snapshot (the orders channel's, on resubscribing) has left the book
 *   while its fills may not have been seen, so it stays resting for that reconciliation to tell
 *   filled from cancelled, rather than called cancelled now and filled later;
 * - never one accepted after the read began (its answer came while the venue was read, which may
 *   have been too early to list it): a `ReadMarks` mark taken before the read tells them apart.
 */
export class SnapshotCloses {
  held = false;
  private readonly accepted: MarkedChanges<string>;

  constructor(marks: ReadMarks) {
    this.accepted = new MarkedChanges(marks);
  }

  /** The venue accepted the order's placement. */
  accept(intentId: string): void {
    this.accepted.changed(intentId);
  }

  /** The order is finished: no snapshot will judge it again. */
  ended(intentId: string): void {
    this.accepted.forget(intentId);
  }

  /** Whether a snapshot read from the mark `readFrom` (undefined: none was taken) must leave the order open. */
  keepsOpen(readFrom: number | undefined): (intentId: string) => boolean {
    if (this.held) return () => true;
    return (intentId) => this.accepted.newerThan(intentId, readFrom);
  }
}
