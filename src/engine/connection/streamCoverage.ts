/**
 * Whether a reconnected connection's streams vouch for everything since the reconnect's round read
 * the venue. That round starts at the authentication and reads what happened up to its read; from
 * then on the private channels carry what happens, and a frame they lose shows as a gap in the
 * oracle's blocks, but only from the connection's first oracle frame (block counting starts
 * there). When that frame comes after the authentication, a stall between the round's read and
 * the frame would show nowhere, so a round is owed from the authentication (`uncovered`). When
 * it comes first, the round reads after it and owes nothing.
 *
 * Only the order of the connection's recorded events decides, never timers: a flight replay owes
 * the same rounds as the recorded bot did. The first connection is not followed (no reconnect's
 * round starts with it): its start-up read comes before it, and a round there would hold every
 * start (docs/spec-gaps/runtime.md).
 */
export class StreamCoverage {
  /** When this connection's authentication started a reconnect's round; undefined: none did. */
  private reconnectedMs: number | undefined;
  private countedYet = false;

  constructor(private readonly uncovered: (sinceMs: number) => void) {}

  /** The connection is authenticated after a loss: the reconnect's round starts now. */
  reconnected(atMs: number): void {
    this.reconnectedMs ??= atMs;
  }

  /** The connection's first oracle frame arrived: its blocks are counted from now. */
  counted(): void {
    if (this.countedYet) return;
    this.countedYet = true;
    if (this.reconnectedMs !== undefined) this.uncovered(this.reconnectedMs);
  }

  /** The connection ended: the next one is neither authenticated nor counted yet. */
  lost(): void {
    this.reconnectedMs = undefined;
    this.countedYet = false;
  }
}
