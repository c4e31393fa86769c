import type { Clock } from '../../core/clock.js';
import { deriveSeed, SeededRandom } from '../exchange/seededRandom.js';
import type { SimFaults } from '../simContext.js';
import { detach } from '../../core/detach.js';

export type WsFaultSettings = Pick<SimFaults, 'wsDropEveryMs' | 'wsStallEveryMs' | 'wsStallForMs'>;

/** What the schedule acts on: the WebSocket server's own drop and stall controls. */
export interface WsFaultTargets {
  /** Ends every client connection abruptly, as a network drop does. */
  dropAll(): void;
  /** Sends nothing (frames discarded, pings unanswered) for `ms`, closing nothing. */
  stall(ms: number): void;
}

export interface WsFaultScheduleDeps {
  /** Real time, like the server's stalls and pings (not the simulated clock). */
  readonly timers: Clock;
  /** The simulator seed; each fault draws from its own stream derived from it. */
  readonly seed: number;
  readonly targets: WsFaultTargets;
  /** Where a failing target call is reported; the schedule goes on. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Automatic WebSocket faults, all off by default: every connection dropped about every
 * `wsDropEveryMs`, and every stream stalled for `wsStallForMs` about every `wsStallEveryMs` (the
 * quiet time between the end of one stall and the start of the next). Each wait is drawn
 * uniformly from half to one and a half times its period by a generator seeded from the simulator
 * seed, so a seeded run injects the same sequence of gaps. `apply` takes new settings at any time:
 * a fault whose settings changed starts over with a fresh wait, 0 stops it.
 */
export class WsFaultSchedule {
  private settings: WsFaultSettings = { wsDropEveryMs: 0, wsStallEveryMs: 0, wsStallForMs: 0 };
  private dropLoop: AbortController | undefined;
  private stallLoop: AbortController | undefined;
  private readonly dropRandom: SeededRandom;
  private readonly stallRandom: SeededRandom;
  private closed = false;

  constructor(private readonly deps: WsFaultScheduleDeps) {
    this.dropRandom = new SeededRandom(deriveSeed(deps.seed, 'ws-fault', 'drop'));
    this.stallRandom = new SeededRandom(deriveSeed(deps.seed, 'ws-fault', 'stall'));
  }

  apply(next: WsFaultSettings): void {
    if (this.closed) return;
    const previous = this.settings;
    this.settings = {
      wsDropEveryMs: next.wsDropEveryMs,
      wsStallEveryMs: next.wsStallEveryMs,
      wsStallForMs: next.wsStallForMs,
    };
    if (next.wsDropEveryMs !== previous.wsDropEveryMs) {
      this.dropLoop?.abort();
      this.dropLoop =
        next.wsDropEveryMs > 0
          ? this.run(next.wsDropEveryMs, this.dropRandom, () => this.deps.targets.dropAll(), 0)
          : undefined;
    }
    if (next.wsStallEveryMs !== previous.wsStallEveryMs || next.wsStallForMs !== previous.wsStallForMs) {
      this.stallLoop?.abort();
      const forMs = next.wsStallForMs;
      this.stallLoop =
        next.wsStallEveryMs > 0 && forMs > 0
          ? this.run(next.wsStallEveryMs, this.stallRandom, () => this.deps.targets.stall(forMs), forMs)
          : undefined;
    }
  }

  /** Stops every fault for good. */
  close(): void {
    this.closed = true;
    this.dropLoop?.abort();
    this.stallLoop?.abort();
    this.dropLoop = undefined;
    this.stallLoop = undefined;
  }

  /** Waits a drawn gap, acts, waits `busyMs` (the fault's own duration), and again until aborted. */
  private run(everyMs: number, random: SeededRandom, act: () => void, busyMs: number): AbortController {
    const controller = new AbortController();
    const { timers, onError } = this.deps;
    const loop = async (): Promise<void> => {
      for (;;) {
        try {
          await timers.sleep(drawGap(everyMs, random), controller.signal);
        } catch {
          return;
        }
        try {
          act();
        } catch (error) {
          onError?.(error);
        }
        if (busyMs === 0) continue;
        try {
          await timers.sleep(busyMs, controller.signal);
        } catch {
          return;
        }
      }
    };
    detach(loop(), (error) => onError?.(error));
    return controller;
  }
}

/** Uniform in [everyMs / 2, 3 * everyMs / 2], at least 1 ms. */
export function drawGap(everyMs: number, random: SeededRandom): number {
  const low = Math.max(1, Math.ceil(everyMs / 2));
  return random.between(low, Math.max(low, Math.floor((everyMs * 3) / 2)));
}
