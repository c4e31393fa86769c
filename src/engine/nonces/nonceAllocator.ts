import { abortError } from '../../core/abortError.js';
import { InvalidValueError } from '../../core/invalidValueError.js';
import { PerpbotError } from '../../core/perpbotError.js';
import type { NonceConfig } from '../config/engineConfig.js';
import { WaitQueue } from './waitQueue.js';
import {
  compareNoncePairs,
  MAX_NONCE_ANCHOR,
  MAX_NONCE_BIT,
  noncePairKey,
  type NoncePair,
  type NonceState,
} from './noncePair.js';

/** What became of a handed-out pair (see `NonceAllocator`: every pair is reported once). */
export type NonceFate = 'landed' | 'refused' | 'unknown';

export interface NonceAllocatorOptions {
  readonly slots?: NonceConfig;
  /** The highest pair a previous run handed out (from the journal). */
  readonly restoredHighWater?: NoncePair;
}

export interface NonceAllocatorStatus {
  readonly venueAnchor: bigint;
  /** The next pair to hand out; `bit` above 207 means the anchor is used up and must roll. */
  readonly cursor: NoncePair;
  readonly inFlight: number;
  readonly waiting: number;
  /** Why allocation is blocked right now, or undefined when a pair is available. */
  readonly blockedBy: string | undefined;
}

/**
 * Hands out (anchor, bit) nonces for one account with no round trips, in strictly increasing
 * order, never the same pair twice, and never an anchor the venue would refuse.
 *
 * Venue rules it is built on: the contract accepts the current anchor or current + 1; signing
 * current + 1 moves the current anchor there, after which permits of older anchors still in flight
 * fail with InvalidNonceAnchor; bits 0..207 per anchor; each pair consumable once.
 *
 * - Start at current + 1 from the first bit (spec "Nonces"), or just after a restored high-water
 *   pair so a restarted process never reuses one.
 * - An anchor A is handed out only while A <= (venue anchor known to us) + 1, and only when no
 *   pair of an anchor between the venue's and A is still in flight: rolling to the next anchor
 *   therefore waits until one permit of the previous anchor has landed and none is in flight.
 *   `allocate()` waits (backpressure) until that holds; `tryAllocate()` returns undefined.
 * - The venue anchor we know only grows: from the nonce-state read and from landed reports.
 * - Several processes share an account by each taking a slot: bits b with b % slots === slot.
 *
 * Every pair handed out must be reported once its fate is known: `landed` (the venue consumed
 * it), `refused` (it definitely did not, or it was never signed), `unknown` (no definite answer;
 * it stops blocking the roll, but is no evidence that the venue moved). A later `landed` for an
 * unknown pair is welcome.
 */
export class NonceAllocator {
  readonly account: string;
  private readonly slot: number;
  private readonly slots: number;
  private venueAnchor: bigint;
  private cursorAnchor: bigint;
  private cursorBit: number;
  /** Consumed bits of `cursorAnchor` known from the venue's bitmap; skipped. */
  private usedBits = 0n;
  /**
   * Bits in flight per anchor. Keyed by anchor so the roll check looks at the few anchors in
   * flight, not at every pair (a burst keeps hundreds in flight and checks on every allocation).
   */
  private readonly inFlight = new Map<bigint, Set<number>>();
  private inFlightCount = 0;
  private high: NoncePair | undefined;
  private readonly waiters = new WaitQueue<NoncePair>();

  constructor(account: string, nonceState: NonceState, options: NonceAllocatorOptions = {}) {
    this.account = account;
    const slots = options.slots ?? { slot: 0, slots: 1 };
    if (!Number.isSafeInteger(slots.slots) || slots.slots < 1 || slots.slots > MAX_NONCE_BIT + 1) {
      throw new InvalidValueError('nonces.slots', slots.slots, `a whole number from 1 to ${MAX_NONCE_BIT + 1}`);
    }
    if (!Number.isSafeInteger(slots.slot) || slots.slot < 0 || slots.slot >= slots.slots) {
      throw new InvalidValueError('nonces.slot', slots.slot, `a whole number from 0 to ${slots.slots - 1}`);
    }
    this.slot = slots.slot;
    this.slots = slots.slots;
    this.venueAnchor = nonceState.anchor;
    if (nonceState.anchor < MAX_NONCE_ANCHOR) {
      this.cursorAnchor = nonceState.anchor + 1n;
    } else {
      // The last uint48 anchor has no successor: use what its bitmap leaves free.
      this.cursorAnchor = nonceState.anchor;
      this.usedBits = nonceState.bitmap;
    }
    this.cursorBit = this.firstSlotBit(0);
    const restored = options.restoredHighWater;
    // A pair beyond current + 1 was never signed for this venue state (a live run only hands out
    // anchors up to what the venue accepts): it comes from a dry run. Restoring it would block
    // allocation forever, and none of its pairs can have landed, so it is ignored.
    const plausible = restored !== undefined && restored.anchor <= nonceState.anchor + 1n;
    if (
      restored !== undefined &&
      plausible &&
      compareNoncePairs(restored, { anchor: this.cursorAnchor, bit: this.cursorBit }) >= 0
    ) {
      this.high = restored;
      this.continueAfterHighWater(nonceState);
    }
  }

  /** A pair now, or undefined when the venue would not accept the next one yet (or others wait). */
  tryAllocate(): NoncePair | undefined {
    return this.waiters.size > 0 ? undefined : this.take();
  }

  /** A pair as soon as one may be signed; rejects with the signal's reason (`abortError`) when aborted. */
  allocate(signal?: AbortSignal): Promise<NoncePair> {
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    const now = this.tryAllocate();
    if (now !== undefined) return Promise.resolve(now);
    return this.waiters.wait(signal);
  }

  report(pair: NoncePair, fate: NonceFate): void {
    if (this.high === undefined || compareNoncePairs(pair, this.high) > 0) {
      throw new PerpbotError(`nonce pair ${noncePairKey(pair)} was never handed out for ${this.account}`, {
        code: 'NONCE_NOT_ALLOCATED',
        details: { anchor: pair.anchor.toString(), bit: pair.bit, fate },
        hints: ['report only pairs that this allocator handed out'],
      });
    }
    const bits = this.inFlight.get(pair.anchor);
    if (bits !== undefined && bits.delete(pair.bit)) {
      this.inFlightCount--;
      if (bits.size === 0) this.inFlight.delete(pair.anchor);
    }
    if (fate === 'landed' && pair.anchor > this.venueAnchor) this.venueAnchor = pair.anchor;
    this.pump();
  }

  /**
   * After InvalidNonceAnchor, InvalidNonceIndex or NonceUsed on a fresh pair: take the venue's
   * word for its current anchor. Pairs already handed out are never reissued. When the venue has
   * moved past everything we handed out (another process rolled), continue in its current anchor
   * at our first slot bit its bitmap shows free, rather than jumping to current + 1, which would
   * kill the other process's permits in flight.
   */
  resync(nonceState: NonceState): void {
    if (nonceState.anchor > this.venueAnchor) this.venueAnchor = nonceState.anchor;
    if (this.high === undefined || this.high.anchor < this.venueAnchor) {
      // Nothing of the venue's current anchor was handed out by us, so its bitmap is the truth.
      if (this.cursorAnchor <= this.venueAnchor) {
        this.cursorAnchor = this.venueAnchor;
        this.usedBits = nonceState.anchor === this.venueAnchor ? nonceState.bitmap : 0n;
        this.cursorBit = this.firstSlotBit(0);
      }
    } else if (this.cursorAnchor === nonceState.anchor) {
      this.usedBits |= nonceState.bitmap;
      this.cursorBit = this.firstSlotBit(this.cursorBit);
    }
    this.pump();
  }

  /** The highest pair handed out so far: persist it, and pass it back as `restoredHighWater`. */
  highWater(): NoncePair | undefined {
    return this.high;
  }

  status(): NonceAllocatorStatus {
    return {
      venueAnchor: this.venueAnchor,
      cursor: { anchor: this.cursorAnchor, bit: this.cursorBit },
      inFlight: this.inFlightCount,
      waiting: this.waiters.size,
      blockedBy: this.blockedBy(this.cursorBit > MAX_NONCE_BIT ? this.cursorAnchor + 1n : this.cursorAnchor),
    };
  }

  private take(): NoncePair | undefined {
    let anchor = this.cursorAnchor;
    let bit = this.cursorBit;
    if (bit > MAX_NONCE_BIT) {
      anchor += 1n;
      if (anchor > MAX_NONCE_ANCHOR || this.blockedBy(anchor) !== undefined) return undefined;
      this.cursorAnchor = anchor;
      this.usedBits = 0n;
      bit = this.firstSlotBit(0);
    } else if (this.blockedBy(anchor) !== undefined) {
      return undefined;
    }
    const pair = { anchor, bit };
    this.cursorBit = this.firstSlotBit(bit + 1);
    let bits = this.inFlight.get(anchor);
    if (bits === undefined) {
      bits = new Set();
      this.inFlight.set(anchor, bits);
    }
    const before = bits.size;
    bits.add(bit);
    this.inFlightCount += bits.size - before;
    this.high = pair;
    return pair;
  }

  private blockedBy(anchor: bigint): string | undefined {
    if (anchor > this.venueAnchor + 1n) {
      return `anchor ${anchor} is beyond the venue's current anchor ${this.venueAnchor} + 1; waiting for a permit of anchor ${anchor - 1n} to land`;
    }
    for (const inFlightAnchor of this.inFlight.keys()) {
      // Pairs older than the venue's anchor can no longer land; they do not hold anything back.
      if (inFlightAnchor >= this.venueAnchor && inFlightAnchor < anchor) {
        return `a permit of anchor ${inFlightAnchor} is still in flight; signing anchor ${anchor} would invalidate it`;
      }
    }
    return undefined;
  }

  private pump(): void {
    while (this.waiters.size > 0) {
      const pair = this.take();
      if (pair === undefined) return;
      this.waiters.resolveNext(pair);
    }
  }

  /** The smallest bit >= from in this process's slot that the venue has not marked consumed. */
  private firstSlotBit(from: number): number {
    let bit = from + ((this.slot - (from % this.slots) + this.slots) % this.slots);
    while (bit <= MAX_NONCE_BIT && (this.usedBits >> BigInt(bit)) & 1n) bit += this.slots;
    return bit;
  }

  private continueAfterHighWater(nonceState: NonceState): void {
    const high = this.high;
    if (high === undefined) return;
    this.cursorAnchor = high.anchor;
    this.usedBits = high.anchor === nonceState.anchor ? nonceState.bitmap : 0n;
    this.cursorBit = this.firstSlotBit(high.bit + 1);
  }
}
