/** Blocks whose oracle frames never came on a connection that stayed open. */
export interface FramesLost {
  /** When the last oracle frame before the gap arrived (ms, the client's clock): the loss came after it. */
  readonly sinceMs: number;
  readonly firstMissingBlock: number;
  readonly lastMissingBlock: number;
}

/**
 * The oracle channel broadcasts once per block (spec, "oracle"), so on one connection its block
 * numbers follow each other. A jump means the frames of the blocks between were lost while the
 * connection stayed open (a stalled stream discards what it would send), and with them whatever
 * else the venue sent meanwhile: fills, order events, positions. No reconnect follows to read them
 * back, so the loss must be reported by itself. A frame of an earlier or the same block is no gap.
 */
export class OracleBlockGaps {
  private lastBlock: number | undefined;
  private lastAtMs = 0;

  /** A new connection: its first frame follows nothing. */
  reset(): void {
    this.lastBlock = undefined;
  }

  /**
   * Whether this connection's blocks are counted yet (an oracle frame came on it): until then a
   * loss would show no gap, so what the venue sent before the first frame is no one's to vouch for.
   */
  get counting(): boolean {
    return this.lastBlock !== undefined;
  }

  /** The oracle frame of `blockNumber` arrived at `atMs`: the gap before it, if any. */
  note(blockNumber: number, atMs: number): FramesLost | undefined {
    const last = this.lastBlock;
    const sinceMs = this.lastAtMs;
    if (last !== undefined && blockNumber <= last) return undefined;
    this.lastBlock = blockNumber;
    this.lastAtMs = atMs;
    if (last === undefined || blockNumber === last + 1) return undefined;
    return { sinceMs, firstMissingBlock: last + 1, lastMissingBlock: blockNumber - 1 };
  }
}
