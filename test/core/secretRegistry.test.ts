import { describe, expect, it } from 'vitest';
import { REDACTED, redactText } from '../../src/core/redactor.js';
import { heldSecrets, registerRecentSecret, registerSecret, SecretRegistry } from '../../src/core/secretRegistry.js';

const hex32 = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;

describe('the secret registry', () => {
  it('knows a value only once it is registered', () => {
    const key = `0x${'5c'.repeat(32)}`;
    expect(redactText(`key ${key}`)).toBe(`key ${key}`);
    registerSecret(key);
    expect(redactText(`key ${key}`)).toBe(`key ${REDACTED}`);
  });

  it('refuses values too short to redact without blinding the logs', () => {
    registerSecret('  abc123  ');
    registerSecret('');
    expect(redactText('order abc123 of market 1, placed')).toBe('order abc123 of market 1, placed');
    expect(heldSecrets.textSecrets()).not.toContain('abc123');
  });

  it('keys a hex value by its bytes and a base64 value by its text and its bytes', () => {
    registerSecret(`0X${'AB'.repeat(32)}`);
    expect(heldSecrets.holds('ab'.repeat(32))).toBe(true);
    const token = Buffer.from('d1'.repeat(32), 'hex').toString('base64url');
    registerRecentSecret(token);
    expect(heldSecrets.holds(token)).toBe(true);
    expect(heldSecrets.holds('d1'.repeat(32))).toBe(true);
  });

  it('remembers the last two generations of recent secrets (1024 each) and forgets older ones', () => {
    const registry = new SecretRegistry();
    const form = (n: number): string => hex32(n).slice(2);
    for (let i = 1; i <= 2048; i++) registry.registerRecent(hex32(i));
    expect(registry.holds(form(1))).toBe(true);
    registry.registerRecent(hex32(2049));
    expect(registry.holds(form(1))).toBe(false);
    expect(registry.holds(form(1024))).toBe(false);
    expect(registry.holds(form(1025))).toBe(true);
    expect(registry.holds(form(2049))).toBe(true);
  });
});
