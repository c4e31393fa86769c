import type { Clock } from '../../core/clock.js';
import type { ProtectedPosition } from './protectionLegs.js';

/** How long a fired leg's position is left to close before new legs are placed for what remains. */
const CLOSING_HOLD_MS = 10_000;

/**
 * Protected markets whose leg fired (on the venue, or emulated): the position it closes is on its
 * way out, so no new leg is placed for it until the position moved from what it was then (the
 * execution's fill reached the positions feed) or `CLOSING_HOLD_MS` passed. Without this hold the
 * keeper would protect, for a block, a position already being closed.
 */
export class ClosingPositions {
  private readonly since = new Map<string, { readonly sinceMs: number; readonly size: string }>();

  constructor(
    private readonly position: (marketId: number) => ProtectedPosition | undefined,
    private readonly clock: Clock,
  ) {}

  /** A leg of the strategy's market fired now. */
  hold(strategy: string, marketId: number): void {
    const size = this.position(marketId)?.size;
    if (size !== undefined) this.since.set(`${strategy}/${marketId}`, { sinceMs: this.clock.now(), size });
  }

  /** Whether the strategy's market is still closing after a fired leg. */
  closing(strategy: string, marketId: number): boolean {
    const key = `${strategy}/${marketId}`;
    const held = this.since.get(key);
    if (held === undefined) return false;
    const size = this.position(marketId)?.size;
    if (size !== undefined && size === held.size && this.clock.now() - held.sinceMs < CLOSING_HOLD_MS) return true;
    this.since.delete(key);
    return false;
  }
}
