import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { redactText } from '../../../../src/core/redactor.js';
import { bearerMatches, loadControlToken } from '../../../../src/runtime/operations/control/controlToken.js';

const dir = mkdtempSync(join(tmpdir(), 'perpbot-control-token-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'a'.repeat(20) + 'Z9';
const control = { host: '127.0.0.1', port: 0, token_env: 'PERPBOT_CONTROL_TOKEN', allowed_hosts: [] };

describe('the control token', () => {
  it('is known to the redactor once loaded: no log line or answer shows it, whatever its shape', async () => {
    const token = 'kill-switch!token:for-tests';
    expect(redactText(`header was ${token}`)).toBe(`header was ${token}`);
    expect(await loadControlToken(control, { PERPBOT_CONTROL_TOKEN: token }, dir)).toBe(token);
    expect(redactText(`header was ${token}`)).toBe('header was [redacted]');
  });

  it('comes from the environment first, then from a chmod 600 file; none configured: undefined', async () => {
    const file = join(dir, 'token');
    writeFileSync(file, `${TOKEN}\n`, { mode: 0o600 });
    expect(await loadControlToken(control, { PERPBOT_CONTROL_TOKEN: TOKEN }, dir)).toBe(TOKEN);
    expect(await loadControlToken({ ...control, token_file: 'token' }, {}, dir)).toBe(TOKEN);
    expect(
      await loadControlToken({ ...control, token_env: 'OTHER' }, { PERPBOT_CONTROL_TOKEN: TOKEN }, dir),
    ).toBeUndefined();
  });

  it('refuses a file others can read, and a weak token, without showing it', async () => {
    const file = join(dir, 'open-token');
    writeFileSync(file, TOKEN);
    chmodSync(file, 0o644);
    await expect(loadControlToken({ ...control, token_file: file }, {}, dir)).rejects.toThrow(
      `the control token file ${file} is readable by group or others (mode 0644)`,
    );
    const weak = await loadControlToken(control, { PERPBOT_CONTROL_TOKEN: 'short' }, dir).catch(
      (e: unknown) => e as Error,
    );
    expect((weak as Error).message).toBe(
      'the control token from PERPBOT_CONTROL_TOKEN is too weak: expected at least 16 characters without spaces (value not shown)',
    );
  });

  it('matches only "Bearer <token>" exactly', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    for (const header of [
      undefined,
      '',
      TOKEN,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN} extra`,
    ])
      expect(bearerMatches(header, TOKEN)).toBe(false);
  });
});
