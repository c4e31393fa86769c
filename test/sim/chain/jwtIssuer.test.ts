import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_LIFETIME_S, JwtIssuer } from '../../../src/sim/chain/jwtIssuer.js';

const account = '0x1111111111111111111111111111111111111111' as const;

describe('JwtIssuer', () => {
  it('issues an access token that verifies to its account until it expires', () => {
    const issuer = new JwtIssuer();
    const pair = issuer.issue(account, 1_000_000);
    expect(pair.expires_in).toBe(ACCESS_TOKEN_LIFETIME_S);
    expect(issuer.verify(pair.access_token, 1_000_000)).toEqual({ ok: true, account });
    expect(issuer.verify(pair.access_token, 1_000_000 + ACCESS_TOKEN_LIFETIME_S * 1000)).toEqual({
      ok: false,
      failure: 'expired',
    });
  });

  it('refuses a token signed with another key or tampered with', () => {
    const pair = new JwtIssuer().issue(account, 0);
    expect(new JwtIssuer().verify(pair.access_token, 0)).toEqual({ ok: false, failure: 'bad-signature' });
    const [h, , s] = pair.access_token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: account, exp: 9e9 })).toString('base64url');
    expect(new JwtIssuer().verify(`${h}.${forged}.${s}`, 0).ok).toBe(false);
    expect(new JwtIssuer().verify('not-a-token', 0)).toEqual({ ok: false, failure: 'malformed' });
  });

  it('rotates refresh tokens: the old one stops working', () => {
    const issuer = new JwtIssuer();
    const first = issuer.issue(account, 0);
    const second = issuer.refresh(first.refresh_token, 1000);
    expect(second).toBeDefined();
    expect(issuer.verify(second?.access_token ?? '', 1000)).toEqual({ ok: true, account });
    expect(issuer.refresh(first.refresh_token, 2000)).toBeUndefined();
  });
});
