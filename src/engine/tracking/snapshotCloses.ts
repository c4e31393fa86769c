/**
 * Which of our orders a snapshot of the open orders may close when it no longer lists them:
 * - none while held: from a lost connection until the reconciliation that reads the order history,
 *   an order missing from a snapshot (the orders channel's, on resubscribing) has left the book
 *   while its fills may not have been seen, so it stays resting for that reconciliation to tell
 *   filled from cancelled, rather than called cancelled now and filled later;
 * - never one accepted after the read began (its answer came while the venue was read, which may
 *   have been too early to list it). Acceptances are counted, and a mark taken before the read
 *   tells them apart.
 */
export class SnapshotCloses {
  held = false;
  private accepted = 0;
  private readonly acceptedAt = new Map<string, number>();

  /** The venue accepted the order's placement. */
  accept(intentId: string): void {
    this.acceptedAt.set(intentId, ++this.accepted);
  }

  /** The order is finished: no snapshot will judge it again. */
  ended(intentId: string): void {
    this.acceptedAt.delete(intentId);
  }

  /** How many placements have been accepted so far: taken before a snapshot is read. */
  mark(): number {
    return this.accepted;
  }

  /** Whether a snapshot read from the mark `readFrom` (undefined: none was taken) must leave the order open. */
  keepsOpen(readFrom: number | undefined): (intentId: string) => boolean {
    if (this.held) return () => true;
    if (readFrom === undefined) return () => false;
    return (intentId) => (this.acceptedAt.get(intentId) ?? 0) > readFrom;
  }
}
