import { describe, expect, it } from 'vitest';
import { LOGIN_NONCE_LIFETIME_MS, LoginNonces } from '../../../src/sim/chain/loginNonces.js';

const account = '0x1111111111111111111111111111111111111111' as const;
let counter = 0;
const random = (n: number): Uint8Array => new Uint8Array(n).fill(++counter);

describe('LoginNonces', () => {
  it('issues a 0x-prefixed 32-byte hex nonce, valid once', () => {
    const nonces = new LoginNonces(random);
    const nonce = nonces.issue(account, 0);
    expect(nonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(nonces.consume(account, nonce, 1)).toBeUndefined();
    expect(nonces.consume(account, nonce, 2)).toBe('unknown');
  });

  it('accepts the nonce without 0x and in upper case', () => {
    const nonces = new LoginNonces(random);
    const nonce = nonces.issue(account, 0);
    expect(nonces.consume(account, nonce.slice(2).toUpperCase(), 1)).toBeUndefined();
  });

  it('expires after five minutes', () => {
    const nonces = new LoginNonces(random);
    const nonce = nonces.issue(account, 0);
    expect(nonces.check(account, nonce, LOGIN_NONCE_LIFETIME_MS - 1)).toBeUndefined();
    expect(nonces.consume(account, nonce, LOGIN_NONCE_LIFETIME_MS)).toBe('expired');
  });

  it('binds the nonce to the account that asked for it', () => {
    const nonces = new LoginNonces(random);
    const nonce = nonces.issue(account, 0);
    expect(nonces.consume('0x2222222222222222222222222222222222222222', nonce, 1)).toBe('unknown');
    expect(nonces.consume(account, nonce, 1)).toBeUndefined();
  });

  it('forgets expired nonces when issuing new ones', () => {
    const nonces = new LoginNonces(random);
    nonces.issue(account, 0);
    nonces.issue(account, LOGIN_NONCE_LIFETIME_MS + 1);
    expect(nonces.size).toBe(1);
  });
});
