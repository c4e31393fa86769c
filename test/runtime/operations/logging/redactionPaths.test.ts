import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../../../src/core/redactor.js';
import { secretRedactionPaths } from '../../../../src/runtime/operations/logging/redactionPaths.js';

describe('pino redaction paths', () => {
  it('cover the wire shapes at the depths we log', () => {
    const paths = secretRedactionPaths();
    for (const path of [
      'signature',
      '*.signature',
      'permit.signature',
      'permit_params.signature',
      'account_signature',
      'signer_signature',
      'access_token',
      'refresh_token',
      'token',
      'jwt',
      'headers.authorization',
      '*.permit.signature',
      '*.private_key',
    ]) {
      expect(paths).toContain(path);
    }
  });

  it('alone censor secret fields in pino output (valid paths, effective without the formatter)', () => {
    const lines: string[] = [];
    const logger = pino(
      { redact: { paths: secretRedactionPaths(), censor: REDACTED } },
      { write: (line: string) => void lines.push(line) },
    );
    logger.info({
      signature: 'a',
      permit: { signature: 'b', nonce_anchor: '1' },
      request: { permit_params: { signature: 'c' }, headers: { authorization: 'd' } },
      login: { access_token: 'e', refresh_token: 'f' },
      account_signature: 'g',
    });
    const entry = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(entry).toMatchObject({
      signature: REDACTED,
      permit: { signature: REDACTED, nonce_anchor: '1' },
      request: { permit_params: { signature: REDACTED }, headers: { authorization: REDACTED } },
      login: { access_token: REDACTED, refresh_token: REDACTED },
      account_signature: REDACTED,
    });
  });
});
