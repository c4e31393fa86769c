import type { IntentOutcome } from '../intents/intentOutcome.js';
import type { Intent } from '../intents/intents.js';

/**
 * Each strategy's cancels (and cancel-alls) still running: its later placements go after them, so
 * a requote (cancel, cancel, place, place) never has its new quotes resting beside the old ones
 * while those cancels wait (on the rate limit, or for the placement they cancel to be answered).
 */
export class EarlierCancels {
  private readonly running = new Map<string, Set<Promise<IntentOutcome>>>();

  /** Counts a cancel's run until it has its outcome. */
  add(intent: Intent, run: Promise<IntentOutcome>): void {
    let cancels = this.running.get(intent.strategy);
    if (cancels === undefined) {
      cancels = new Set();
      this.running.set(intent.strategy, cancels);
    }
    cancels.add(run);
    const done = releaseOnSettle(this.running, intent.strategy, cancels, run);
    run.then(done, done);
  }

  /** Whether the strategy has cancels still running. */
  has(strategy: string): boolean {
    return this.running.has(strategy);
  }

  /** Resolves once every cancel of the strategy running now has its outcome. */
  async settled(strategy: string): Promise<void> {
    const cancels = this.running.get(strategy);
    if (cancels !== undefined) await Promise.allSettled([...cancels]);
  }
}

/**
 * What forgets a cancel's run once it settles (and the strategy's set once empty). Made by a
 * module function: a closure bound to a name is wrapped in a naming call under tsx on every
 * cancel.
 */
function releaseOnSettle(
  running: Map<string, Set<Promise<IntentOutcome>>>,
  strategy: string,
  held: Set<Promise<IntentOutcome>>,
  run: Promise<IntentOutcome>,
): () => void {
  return () => {
    held.delete(run);
    if (held.size === 0 && running.get(strategy) === held) running.delete(strategy);
  };
}
