import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { checksumAddress } from '../../core/checksumAddress.js';
import type { Address } from '../../core/address.js';

export const ACCESS_TOKEN_LIFETIME_S = 900;
export const REFRESH_TOKEN_LIFETIME_S = 7 * 24 * 3600;

export interface TokenPair {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly expires_in: number;
}

export type JwtFailure = 'malformed' | 'bad-signature' | 'expired';

/**
 * HS256 access tokens (900 s) and opaque, rotating refresh tokens (7 days), as venue-facts
 * describes the venue's login. The key is random per simulator run and never leaves it.
 */
export class JwtIssuer {
  private readonly key: Buffer;
  private readonly refreshTokens = new Map<string, { account: Address; expiresAt: number }>();
  private counter = 0;

  constructor(key: Uint8Array = randomBytes(32)) {
    this.key = Buffer.from(key);
  }

  issue(account: Address, nowMs: number): TokenPair {
    const iat = Math.floor(nowMs / 1000);
    this.counter += 1;
    const header = encode({ alg: 'HS256', typ: 'JWT' });
    const payload = encode({ sub: account, iat, exp: iat + ACCESS_TOKEN_LIFETIME_S, jti: this.counter });
    const access = `${header}.${payload}.${this.sign(`${header}.${payload}`)}`;
    const refresh = randomBytes(32).toString('base64url');
    this.refreshTokens.set(refresh, { account, expiresAt: nowMs + REFRESH_TOKEN_LIFETIME_S * 1000 });
    return { access_token: access, refresh_token: refresh, expires_in: ACCESS_TOKEN_LIFETIME_S };
  }

  verify(token: string, nowMs: number): { ok: true; account: Address } | { ok: false; failure: JwtFailure } {
    const parts = token.split('.');
    const [header, payload, signature] = parts;
    if (parts.length !== 3 || header === undefined || payload === undefined || signature === undefined) {
      return { ok: false, failure: 'malformed' };
    }
    const expected = Buffer.from(this.sign(`${header}.${payload}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      return { ok: false, failure: 'bad-signature' };
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return { ok: false, failure: 'malformed' };
    }
    if (typeof claims !== 'object' || claims === null) return { ok: false, failure: 'malformed' };
    const { sub, exp } = claims as Record<string, unknown>;
    if (typeof sub !== 'string' || typeof exp !== 'number') return { ok: false, failure: 'malformed' };
    if (Math.floor(nowMs / 1000) >= exp) return { ok: false, failure: 'expired' };
    return { ok: true, account: checksumAddress(sub) };
  }

  /** Rotates: the old refresh token stops working and a fresh pair is issued. */
  refresh(refreshToken: string, nowMs: number): TokenPair | undefined {
    const entry = this.refreshTokens.get(refreshToken);
    if (entry === undefined) return undefined;
    this.refreshTokens.delete(refreshToken);
    if (nowMs >= entry.expiresAt) return undefined;
    return this.issue(entry.account, nowMs);
  }

  private sign(input: string): string {
    return createHmac('sha256', this.key).update(input).digest('base64url');
  }
}

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
