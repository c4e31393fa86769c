import { PerpbotError } from '../../core/perpbotError.js';
import { hasNoDefiniteAnswer } from '../../venue/venueTransportError.js';
import { openNonceAllocator, type NonceAllocatorSource } from './openNonceAllocator.js';
import type { NonceAllocator } from './nonceAllocator.js';
import { MAX_NONCE_ANCHOR, MAX_NONCE_BIT, type NoncePair } from './noncePair.js';

/**
 * The durable record of the pairs handed out for an account, as the bot keeps it (its journal):
 * read when nonces are opened, written before each signature. It plays the part that
 * `restoredNonceHighWater` and `EngineJournal.nonceAllocated` play for the engine.
 */
export interface NonceReservations {
  /** The highest pair ever reserved for the account, a crashed run's included. */
  highWater(): NoncePair | undefined;
  /** The pair is about to be signed: durable when this returns. */
  reserve(pair: NoncePair, purpose: string): void;
}

export interface OneShotNoncesSource extends Omit<NonceAllocatorSource, 'restoredHighWater'> {
  /** Where pairs are reserved before they are signed (default: nowhere, for an account no bot trades). */
  readonly reservations?: NonceReservations | undefined;
}

/**
 * Nonces for the signed actions sent outside the engine's executor (the CLI's cancel-all, the
 * setup signatures, the registration probe), one after the other: each pair comes from an
 * allocator built by `openNonceAllocator`, is reserved in the journal before it is signed, as the
 * executor does, and its fate is reported from how the send ended.
 */
export class OneShotNonces {
  private constructor(
    private readonly allocator: NonceAllocator,
    private readonly reservations: NonceReservations | undefined,
  ) {}

  static async open(source: OneShotNoncesSource): Promise<OneShotNonces> {
    const allocator = await openNonceAllocator({ ...source, restoredHighWater: source.reservations?.highWater() });
    return new OneShotNonces(allocator, source.reservations);
  }

  /**
   * Runs `send` (sign and send) with a fresh pair. An answer means the pair landed; a failure
   * without a definite answer leaves it unknown; any other failure (a refusal, a signing error)
   * means it was not consumed.
   */
  async use<T>(purpose: string, send: (pair: NoncePair) => Promise<T>): Promise<T> {
    const pair = this.take(purpose);
    let result: T;
    try {
      result = await send(pair);
    } catch (error) {
      this.allocator.report(pair, hasNoDefiniteAnswer(error) ? 'unknown' : 'refused');
      throw error;
    }
    this.allocator.report(pair, 'landed');
    return result;
  }

  /**
   * A pair now, never a wait: one action at a time reports each pair before the next, so only a
   * journal whose last pairs are still in flight on the venue can block, and waiting would hang.
   */
  private take(purpose: string): NoncePair {
    const pair = this.allocator.tryAllocate();
    if (pair === undefined) throw this.blocked();
    this.reservations?.reserve(pair, purpose);
    return pair;
  }

  private blocked(): PerpbotError {
    const { cursor, venueAnchor, blockedBy } = this.allocator.status();
    const exhausted = cursor.anchor >= MAX_NONCE_ANCHOR && cursor.bit > MAX_NONCE_BIT;
    return new PerpbotError(
      exhausted
        ? `account ${this.allocator.account} has used every nonce (anchor ${venueAnchor})`
        : `no nonce can be signed for ${this.allocator.account} now: ${blockedBy ?? 'the allocator is blocked'}`,
      {
        code: exhausted ? 'NONCE_EXHAUSTED' : 'NONCE_BLOCKED',
        details: { venueAnchor: venueAnchor.toString(), next: { anchor: cursor.anchor.toString(), bit: cursor.bit } },
        hints: exhausted
          ? ['this account cannot sign any more actions; use a new account']
          : [
              "pairs an earlier run reserved in the journal hold the next anchor until one of that run's permits lands",
              'run `perpbot reconcile` to see what is still in flight',
            ],
      },
    );
  }
}
