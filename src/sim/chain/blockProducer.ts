import type { BlockStamp } from '../simContext.js';
import { seededTxHash } from './txHashes.js';

/**
 * The chain's head and the stamps of what gets mined. Every action is mined into the pending
 * block (head + 1) before the venue answers, so its receipt names that block; `mine` then seals
 * the pending block and makes it the head.
 */
export class BlockProducer {
  private head: number;
  private txCounter = 0;

  constructor(
    private readonly seed: number,
    startBlock = 1,
  ) {
    this.head = startBlock;
  }

  get blockNumber(): number {
    return this.head;
  }

  /** A fresh transaction in the pending block. */
  stampAction(timestampMs: number): BlockStamp {
    return { blockNumber: this.head + 1, timestampMs, txHash: this.nextTxHash() };
  }

  /** Seals the pending block; the stamp's hash is the block's oracle-update transaction. */
  mine(timestampMs: number): BlockStamp {
    this.head += 1;
    return { blockNumber: this.head, timestampMs, txHash: this.nextTxHash() };
  }

  private nextTxHash(): `0x${string}` {
    this.txCounter += 1;
    return seededTxHash(this.seed, this.txCounter);
  }
}
