import type { VirtualTime } from '../../../inProcess/virtualTime.js';
import type { FlightRun } from './readFlight.js';

type FlightRecord = FlightRun['records'][number];

/**
 * Where a flight replay's drive is in the recording, and the replay's own steps in it: each intent
 * a strategy handed over and each action the engine admitted (by record index). A step is taken
 * when the drive reaches its record (`take` waits for `reach`), so it falls among the frames and
 * answers where the recorded one did; or at once when the drive has passed it.
 *
 * Or at once, ahead of the drive, when every record before it that the drive has not reached is
 * one the replay has made again already (an intent handed over, an admission, an order event or
 * outcome of its engine: `made`): the recorded bot did some work in one synchronous run (a
 * strategy handing over a requote's intents, the engine admitting the first at once), its clock
 * moving on meanwhile and nothing else running, so its records follow one another with only that
 * work's own between them. The replay then does it in one synchronous run too, its clock moved to
 * the step's time (`VirtualTime.jumpTo`): waiting for the drive would let promises settle between
 * the steps (an outcome delivered between two intents the strategy handed over together), which
 * the recorded bot never did.
 */
export class ReplayCursor {
  /** The next record the drive applies. */
  private next = 0;
  /** Steps taken ahead of the drive, not yet passed by it. */
  private readonly done = new Set<number>();
  /** What waits for its step, by record index. */
  private readonly waiting = new Map<number, (() => void)[]>();
  /** Steps' work running now: those waiting go once the outermost is done (one step's work is not cut into). */
  private depth = 0;
  /** Each record's key and its occurrence among the records of that key (1 for the first). */
  private readonly keys: readonly (readonly [string, number] | undefined)[];
  /** How many of each key the replay has made. */
  private readonly madeCounts = new Map<string, number>();
  private releaseQueued = false;

  constructor(
    private readonly records: readonly FlightRecord[],
    private readonly time: VirtualTime,
  ) {
    const seen = new Map<string, number>();
    this.keys = records.map((record) => {
      const key = recordKey(record);
      if (key === undefined) return undefined;
      const occurrence = (seen.get(key) ?? 0) + 1;
      seen.set(key, occurrence);
      return [key, occurrence] as const;
    });
  }

  /**
   * Runs `work` at step `index`: now when the drive has passed it or may be run ahead of (the
   * clock moved to its time), else when the drive reaches it; the steps waiting behind it that may
   * then go follow in the same synchronous run.
   */
  take(index: number, work: () => void): void {
    if (index < this.next || this.done.has(index)) {
      work();
      return;
    }
    if (!this.aheadOfDrive(index)) {
      const list = this.waiting.get(index) ?? [];
      list.push(work);
      this.waiting.set(index, list);
      return;
    }
    this.takeNow(index, [work]);
    this.releaseWaiting();
  }

  /** `take` as a promise: undefined when the step was taken at once. */
  hold(index: number): Promise<void> | undefined {
    let taken = false;
    let resolve: (() => void) | undefined;
    this.take(index, () => {
      taken = true;
      resolve?.();
    });
    return taken ? undefined : new Promise<void>((r) => (resolve = r));
  }

  /**
   * The replay made what a record holds (`recordKey`: an intent, an admission, an order event, an
   * outcome): the steps waiting for it go, once what runs now is done.
   */
  made(key: string): void {
    this.madeCounts.set(key, (this.madeCounts.get(key) ?? 0) + 1);
    if (this.waiting.size === 0 || this.releaseQueued) return;
    this.releaseQueued = true;
    queueMicrotask(() => {
      this.releaseQueued = false;
      this.releaseWaiting();
    });
  }

  /** The drive is about to apply record `index` (its time reached): the steps there are taken. */
  reach(index: number): void {
    this.next = index;
    const list = this.waiting.get(index);
    if (list !== undefined) {
      this.waiting.delete(index);
      this.run(list);
    }
    this.releaseWaiting();
  }

  /** The drive applied record `index`. */
  applied(index: number): void {
    this.next = index + 1;
    // Taken ahead of the drive, now behind it: `next` says so from here (the set stays small).
    this.done.delete(index);
  }

  /** The recording ended: every step waiting is taken, in order. */
  finish(): void {
    this.next = Number.POSITIVE_INFINITY;
    for (const index of [...this.waiting.keys()].sort((a, b) => a - b)) {
      const list = this.waiting.get(index) ?? [];
      this.waiting.delete(index);
      this.run(list);
    }
  }

  private takeNow(index: number, work: readonly (() => void)[]): void {
    this.done.add(index);
    this.time.jumpTo(this.records[index]?.t ?? this.time.now());
    this.run(work);
  }

  private run(work: readonly (() => void)[]): void {
    this.depth++;
    try {
      for (const w of work) w();
    } finally {
      this.depth--;
    }
  }

  /** The first steps waiting that may now go ahead of the drive, in order (once no step's work runs). */
  private releaseWaiting(): void {
    if (this.depth > 0) return;
    for (;;) {
      let first: number | undefined;
      for (const index of this.waiting.keys()) if (first === undefined || index < first) first = index;
      if (first === undefined || !this.aheadOfDrive(first)) return;
      const work = this.waiting.get(first) ?? [];
      this.waiting.delete(first);
      this.takeNow(first, work);
    }
  }

  /** Whether every record between the drive and `index` is one the replay has made again. */
  private aheadOfDrive(index: number): boolean {
    for (let k = this.next; k < index; k++) {
      const key = this.keys[k];
      if (key === undefined || (this.madeCounts.get(key[0]) ?? 0) < key[1]) return false;
    }
    return true;
  }
}

/**
 * What the replay makes again of a record, as a key (`ReplayCursor.made`): an intent (`I id`), an
 * admission (`A id`), an order event (`O id type`), an outcome (`R id`); undefined for what the
 * drive applies (frames, answers, the bot's life).
 */
export function recordKey(record: FlightRecord): string | undefined {
  switch (record.type) {
    case 'intent':
      return `I ${String(record.intent['intentId'])}`;
    case 'admitted':
      return `A ${record.intentId}`;
    case 'order':
      return `O ${String(record.event['intentId'])} ${String(record.event['type'])}`;
    case 'outcome':
      return `R ${String(record.outcome['intentId'])}`;
    case 'frame':
    case 'connection':
    case 'rest':
    case 'marker':
    case 'connected':
    case 'gap':
      return undefined;
  }
}
