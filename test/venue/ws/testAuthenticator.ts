import type { Clock } from '../../../src/core/clock.js';
import type { Hex, WsAuthenticator } from '../../../src/venue/ws/authenticateWs.js';

/**
 * An authenticator for tests: hands out sequential server-style nonces, "signs" by tagging the
 * nonce (the scripted venue does not verify signatures), and reports a configurable signer status.
 * Records when each nonce was fetched, on the injected clock.
 */
export class TestAuthenticator implements WsAuthenticator {
  readonly account = '0x1111111111111111111111111111111111111111';
  readonly signer = '0x2222222222222222222222222222222222222222';
  readonly nonceFetchedAt: number[] = [];
  status = 1;
  statusChecks = 0;

  constructor(private readonly clock: Clock) {}

  async fetchNonce(): Promise<Hex> {
    this.nonceFetchedAt.push(this.clock.now());
    return `0x${this.nonceFetchedAt.length.toString(16).padStart(64, '0')}`;
  }

  async sign(nonce: Hex): Promise<{ message: string; signature: Hex }> {
    return { message: 'WebSocket Authentication', signature: `0x${nonce.slice(2, 66)}${'ab'.repeat(1)}` };
  }

  async signerStatus(): Promise<number> {
    this.statusChecks++;
    return this.status;
  }
}

/** Waits (on real I/O) until something sleeps on the manual clock, then moves time forward. */
export async function advanceWhenSleeping(
  clock: { pendingSleeps: number; advance(ms: number): Promise<void> },
  ms: number,
): Promise<void> {
  while (clock.pendingSleeps === 0) await new Promise((r) => setTimeout(r, 1));
  await clock.advance(ms);
}
