import { randomBytes } from 'node:crypto';
import type { Address } from '../../core/address.js';

export const LOGIN_NONCE_LIFETIME_MS = 5 * 60 * 1000;

export type LoginNonceFailure = 'unknown' | 'expired';

/** The binding of a nonce issued without an account. */
const ANY_ACCOUNT = '';

/**
 * Server nonces for login and WebSocket auth: 32 random bytes, single use, valid for 5 minutes,
 * bound to the account that asked (none asked: any account may use it once, as GET
 * /v1/auth/nonce takes no account on the live venue). Unpredictable on purpose: a client must fetch one.
 */
export class LoginNonces {
  private readonly issued = new Map<string, { account: string; expiresAt: number }>();

  constructor(private readonly random: (bytes: number) => Uint8Array = (n) => randomBytes(n)) {}

  issue(account: Address | undefined, nowMs: number): `0x${string}` {
    this.sweep(nowMs);
    const nonce = `0x${Buffer.from(this.random(32)).toString('hex')}` as const;
    this.issued.set(nonce, {
      account: account?.toLowerCase() ?? ANY_ACCOUNT,
      expiresAt: nowMs + LOGIN_NONCE_LIFETIME_MS,
    });
    return nonce;
  }

  /** True when `nonce` was issued to `account`, is unused and has not expired; does not consume. */
  check(account: Address, nonce: string, nowMs: number): LoginNonceFailure | undefined {
    const entry = this.issued.get(normalize(nonce));
    if (entry === undefined || (entry.account !== ANY_ACCOUNT && entry.account !== account.toLowerCase()))
      return 'unknown';
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
