import { describe, expect, it } from 'vitest';
import { redactText } from '../../../../src/core/redactor.js';
import { webhookUrlFrom } from '../../../../src/runtime/operations/alerts/webhookUrl.js';

describe('the alert webhook URL', () => {
  it('is checked at start, and a malformed one is refused without showing it', () => {
    const malformed = 'https://hooks.example.com:99999/services/T0/B0/malformed-secret-xyz';
    let message = '';
    try {
      webhookUrlFrom('ALERT_URL', { ALERT_URL: malformed });
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message).toBe('ALERT_URL is not a well-formed URL (value not shown)');
    // Registered before the check: a later echo of it anywhere is redacted too.
    expect(redactText(`posting to ${malformed} failed`)).not.toContain('malformed-secret-xyz');
  });

  it('refuses a URL that is not http(s), and an unset variable', () => {
    expect(() =>
      webhookUrlFrom('ALERT_URL', { ALERT_URL: 'ftp://hooks.example.com/services/T0/B0/ftp-secret-abc' }),
    ).toThrow('ALERT_URL is not an http(s) URL (value not shown)');
    expect(() => webhookUrlFrom('ALERT_URL', {})).toThrow('alerts.webhook_url_env names ALERT_URL, which is not set');
  });

  it('registers the URL and its path as secrets: logs and errors show neither, the host stays readable', () => {
    const url = 'https://hooks.example.com/services/T0AAA/B0BBB/XyZsecretTokenValue123';
    expect(webhookUrlFrom('ALERT_URL', { ALERT_URL: url })).toBe(url);
    const line = redactText(
      `fetch ${url} failed; path /services/T0AAA/B0BBB/XyZsecretTokenValue123 at hooks.example.com`,
    );
    expect(line).not.toContain('XyZsecretTokenValue123');
    expect(line).toContain('hooks.example.com');
  });
});
