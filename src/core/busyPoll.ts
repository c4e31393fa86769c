import { performance } from 'node:perf_hooks';

/**
 * Busy polling of the event loop while the market is active: the loop never blocks in the
 * kernel's poll while `activity` keeps changing, so the core stays awake between two events.
 * Why: on a VM (and on any CPU with deep idle states) a thread that sleeps even a millisecond
 * between two frames finds its caches, branch predictors and clock cold when the next frame
 * arrives; on this project's 2-core host that made a frame's way to the order's bytes on the
 * socket about a quarter slower (bench `tick_to_trade`, with and without). The price is one core
 * at 100 % while frames arrive, hence off by default and bounded: after `windowMs` without new
 * activity the loop parks (blocks as usual) and looks again every `parkCheckMs`.
 *
 * A queued immediate is what keeps node's loop from blocking (its poll then has a zero timeout);
 * the immediate must stay referenced for that, so `stop()` is part of every shutdown. A forgotten
 * one still ends: with no activity the loop parks after `windowMs`, and the parked check is
 * unreferenced.
 */
export interface BusyPollOptions {
  /** Keep spinning this long after the last change of `activity`, ms. */
  readonly windowMs: number;
  /** A count that grows with every event worth staying awake for (e.g. frames received). */
  readonly activity: () => number;
  /** While parked, how often `activity` is looked at, ms. */
  readonly parkCheckMs?: number;
  readonly now?: () => number;
}

export type BusyPollState = 'spinning' | 'parked' | 'stopped';

const DEFAULT_PARK_CHECK_MS = 10;

/** The config's default `busy_poll.window_ms`: a few frames' gaps at the venue's block times. */
export const DEFAULT_BUSY_POLL_WINDOW_MS = 50;

export class BusyPoll {
  private state: BusyPollState = 'stopped';
  private lastCount = 0;
  private lastActiveAt = 0;
  private immediate: NodeJS.Immediate | undefined;
  private parkTimer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly parkCheckMs: number;
  private readonly spinOnce = (): void => this.spin();
  private readonly checkParked = (): void => this.lookWhileParked();

  constructor(private readonly options: BusyPollOptions) {
    if (!(options.windowMs > 0)) throw new RangeError(`busy poll windowMs must be > 0, got ${options.windowMs}`);
    this.now = options.now ?? (() => performance.now());
    this.parkCheckMs = options.parkCheckMs ?? DEFAULT_PARK_CHECK_MS;
  }

  get current(): BusyPollState {
    return this.state;
  }

  /** Starts spinning (the window counts from now). */
  start(): void {
    if (this.state !== 'stopped') return;
    this.lastCount = this.options.activity();
    this.resume();
  }

  stop(): void {
    this.state = 'stopped';
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    if (this.parkTimer !== undefined) clearTimeout(this.parkTimer);
    this.immediate = undefined;
    this.parkTimer = undefined;
  }

  private resume(): void {
    this.state = 'spinning';
    this.lastActiveAt = this.now();
    this.immediate = setImmediate(this.spinOnce);
  }

  private spin(): void {
    this.immediate = undefined;
    if (this.state !== 'spinning') return;
    const count = this.options.activity();
    const now = this.now();
    if (count !== this.lastCount) {
      this.lastCount = count;
      this.lastActiveAt = now;
    } else if (now - this.lastActiveAt >= this.options.windowMs) {
      this.park();
      return;
    }
    this.immediate = setImmediate(this.spinOnce);
  }

  private park(): void {
    this.state = 'parked';
    this.parkTimer = setTimeout(this.checkParked, this.parkCheckMs).unref();
  }

  private lookWhileParked(): void {
    this.parkTimer = undefined;
    if (this.state !== 'parked') return;
    const count = this.options.activity();
    if (count !== this.lastCount) {
      this.lastCount = count;
      this.resume();
      return;
    }
    this.parkTimer = setTimeout(this.checkParked, this.parkCheckMs).unref();
  }
}
