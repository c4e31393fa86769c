import { randomBytes } from 'node:crypto';
import type { Address } from '../../core/address.js';

export const LOGIN_NONCE_LIFETIME_MS = 5 * 60 * 1000;

export type LoginNonceFailure = 'unknown' | 'expired';

/**
 * Server nonces for login and WebSocket auth: 32 random bytes, bound to the account that asked,
 * single use, valid for 5 minutes. Unpredictable on purpose: a client must fetch one.
 */
export class LoginNonces {
  private readonly issued = new Map<string, { account: string; expiresAt: number }>();

  constructor(private readonly random: (bytes: number) => Uint8Array = (n) => randomBytes(n)) {}

  issue(account: Address, nowMs: number): `0x${string}` {
    this.sweep(nowMs);
    const nonce = `0x${Buffer.from(this.random(32)).toString('hex')}` as const;
    this.issued.set(nonce, { account: account.toLowerCase(), expiresAt: nowMs + LOGIN_NONCE_LIFETIME_MS });
    return nonce;
  }

  /** True when `nonce` was issued to `account`, is unused and has not expired; does not consume. */
  check(account: Address, nonce: string, nowMs: number): LoginNonceFailure | undefined {
    const entry = this.issued.get(normalize(nonce));
    if (entry === undefined || entry.account !== account.toLowerCase()) return 'unknown';
    if (nowMs >= entry.expiresAt) return 'expired';
    return undefined;
  }

  consume(account: Address, nonce: string, nowMs: number): LoginNonceFailure | undefined {
    const failure = this.check(account, nonce, nowMs);
    if (failure === undefined) this.issued.delete(normalize(nonce));
    return failure;
  }

  get size(): number {
    return this.issued.size;
  }

  private sweep(nowMs: number): void {
    for (const [nonce, entry] of this.issued) if (nowMs >= entry.expiresAt) this.issued.delete(nonce);
  }
}

/** "ABC…", "0XAbc…" and "0xabc…" name the same uint256; leading zeros are kept (64 hex digits). */
function normalize(nonce: string): string {
  const digits = nonce.startsWith('0x') || nonce.startsWith('0X') ? nonce.slice(2) : nonce;
  return `0x${digits.toLowerCase().padStart(64, '0')}`;
}
