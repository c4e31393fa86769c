/**
 * Whether the venue's streams vouch for everything since the engine last read the venue. A
 * reconciliation reads what happened up to its read; from then on the private channels carry what
 * happens, and a frame they lose shows as a gap in the oracle's blocks, but only once the
 * connection is authenticated (its private channels subscribed) and its first oracle frame came
 * (block counting starts there). Something lost before that shows nowhere. So a round is owed
 * (`uncovered`, from when the venue was last read):
 * - on the first connection, once both hold: the start-up read came before it, and no round
 *   follows a first authentication;
 * - on a later connection, when its first oracle frame comes after its authentication: the round
 *   that authentication started may have read before the frame (a stall right after a reconnect).
 *   When the frame comes first, that round reads after it and owes nothing.
 *
 * Only the order of the connection's recorded events decides, never timers: a flight replay owes
 * the same rounds as the recorded bot did.
 */
export class StreamCoverage {
  private readMs: number | undefined;
  private everAuthenticated = false;
  /** This connection's authentication is the first of the engine's life: no round follows it. */
  private firstConnection = true;
  private authenticatedMs: number | undefined;
  private countedMs: number | undefined;

  constructor(private readonly uncovered: (sinceMs: number) => void) {}

  /** A reconciliation reads the venue from `atMs` on. */
  reading(atMs: number): void {
    this.readMs = atMs;
  }

  /** The connection is authenticated: its private channels carry what happens from now. */
  authenticated(atMs: number): void {
    if (this.authenticatedMs !== undefined) return;
    this.authenticatedMs = atMs;
    this.firstConnection = !this.everAuthenticated;
    this.everAuthenticated = true;
    if (this.countedMs === undefined) return;
    // Counted first: a later connection's round, started by this authentication, reads after it.
    if (this.firstConnection) this.owe();
  }

  /** The connection's first oracle frame arrived: its blocks are counted from now. */
  counted(atMs: number): void {
    if (this.countedMs !== undefined) return;
    this.countedMs = atMs;
    if (this.authenticatedMs !== undefined) this.owe();
  }

  /** The connection ended: the next one is neither authenticated nor counted yet. */
  lost(): void {
    this.authenticatedMs = undefined;
    this.countedMs = undefined;
  }

  private owe(): void {
    const since = this.firstConnection ? this.readMs : this.authenticatedMs;
    if (since !== undefined) this.uncovered(since);
  }
}
