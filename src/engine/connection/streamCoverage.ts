/**
 * Whether a connection's streams vouch for everything since the venue was last read. A round of
 * reads covers up to its read; from then on the private channels carry what happens, and a frame
 * they lose shows as a gap in the oracle's blocks, but only from the connection's first oracle
 * frame (block counting starts there). So a round is owed (`uncovered`) where the streams began
 * too late to vouch:
 * - after a reconnect whose first oracle frame came after the authentication, from the
 *   authentication (the reconnect's round reads from there; a stall between its read and the
 *   frame would show nowhere). When the frame comes first, that round reads after it: nothing owed;
 * - after a start whose read found something that can fill or change (orders resting, a position),
 *   from that read, once the first connection is both authenticated and counted: a fill between
 *   the start's read and the private subscription, or lost in a stall before the first oracle
 *   frame, reaches no stream. A start with nothing on the venue owes nothing (it holds no start up).
 *
 * Only the order of the connection's recorded events decides, never timers: a flight replay owes
 * the same rounds as the recorded bot did.
 */
export class StreamCoverage {
  /** When this connection's authentication started a reconnect's round; undefined: none did. */
  private reconnectedMs: number | undefined;
  private countedYet = false;
  private authenticatedYet = false;
  /** The start's read, while a round from it is owed and not yet started. */
  private startReadMs: number | undefined;

  constructor(private readonly uncovered: (sinceMs: number) => void) {}

  /** The start read the venue at `readAtMs` and found something that can change before the streams vouch. */
  startedWithHoldings(readAtMs: number): void {
    this.startReadMs = readAtMs;
    this.settle();
  }

  /** The connection is authenticated: its private channels carry what happens from now. */
  authenticated(): void {
    this.authenticatedYet = true;
    this.settle();
  }

  /**
   * The connection is authenticated after a loss: the reconnect's round starts now. Owed only when
   * the first oracle frame is still to come: one that came first is before the round's read.
   */
  reconnected(atMs: number): void {
    if (!this.countedYet) this.reconnectedMs ??= atMs;
  }

  /** The connection's first oracle frame arrived: its blocks are counted from now. */
  counted(): void {
    if (this.countedYet) return;
    this.countedYet = true;
    this.settle();
  }

  /** The connection ended: the next one is neither authenticated nor counted yet. A start's debt stays. */
  lost(): void {
    this.reconnectedMs = undefined;
    this.countedYet = false;
    this.authenticatedYet = false;
  }

  private settle(): void {
    if (!this.countedYet) return;
    const owed = [this.reconnectedMs, this.authenticatedYet ? this.startReadMs : undefined].filter(
      (ms): ms is number => ms !== undefined,
    );
    if (owed.length === 0) return;
    // Each debt is paid once: a later frame or authentication of this connection owes nothing more.
    this.reconnectedMs = undefined;
    if (this.authenticatedYet) this.startReadMs = undefined;
    this.uncovered(Math.min(...owed));
  }
}
