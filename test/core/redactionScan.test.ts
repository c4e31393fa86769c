import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  replaceBase64Runs,
  replaceCredentialMembers,
  replaceHexRuns,
  replaceJwts,
} from '../../src/core/redactionScan.js';
import { redactRecordingText, redactText } from '../../src/core/redactor.js';
import { registerSecret } from '../../src/core/secretRegistry.js';

// The regexps the scans replaced: the reference they are held to, on inputs the regexps can take.
const HEX_RUN = /(?<![0-9A-Za-z])(?:0[xX])?[0-9a-fA-F]{32,}(?![0-9A-Za-z])/g;
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{22,}={0,2}(?![A-Za-z0-9+/=_-])/g;
const JWT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const CREDENTIAL_MEMBER =
  /"([A-Za-z_-]*(?:token|jwt|bearer|key|secret|mnemonic|password|authorization|cookie))"(\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

/** Text made of the pieces the patterns turn on: runs, their boundaries, padding, quotes, escapes. */
const pieces = fc.constantFrom(
  '0',
  '0x',
  'X',
  'a',
  'f',
  'F',
  'g',
  'Z',
  '9',
  '+',
  '/',
  '_',
  '-',
  '=',
  '.',
  '"',
  '\\',
  ':',
  ' ',
  '\n',
  'eyJ',
  'token',
  'Key',
  'private_key',
  '"access_token": "',
  'deadbeef'.repeat(4),
  'QUJDREVGR0hJSktMTU5PUFFS',
  'é',
);
const texts = fc.array(pieces, { maxLength: 60 }).map((parts) => parts.join(''));
const mark = (run: string): string => `<${run.length}:${run.slice(0, 3)}>`;

describe('the redactor scans equal the regexps they replaced', () => {
  it('hex runs', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(replaceHexRuns(text, mark)).toBe(text.replace(HEX_RUN, mark));
      }),
      {
        numRuns: 3000,
      },
    );
  });

  it('base64 runs', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(replaceBase64Runs(text, mark)).toBe(text.replace(BASE64_RUN, mark));
      }),
      { numRuns: 3000 },
    );
  });

  it('JWTs', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(replaceJwts(text, '#')).toBe(text.replace(JWT, '#'));
      }),
      {
        numRuns: 3000,
      },
    );
  });

  it('credential members', () => {
    const redact = (name: string): boolean => name.length % 2 === 0;
    fc.assert(
      fc.property(texts, (text) => {
        expect(replaceCredentialMembers(text, redact, '#')).toBe(
          text.replace(CREDENTIAL_MEMBER, (member: string, name: string, colon: string) =>
            redact(name) ? `"${name}"${colon}"#"` : member,
          ),
        );
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the redactor on long input', () => {
  const key = `0x${'4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'}`;
  registerSecret(key);
  const tenMb = 10 * 1024 * 1024;
  const shapes: [string, string][] = [
    ['letters and digits', 'a1b2c3d4'.repeat(tenMb / 8)],
    ['hex', 'deadbeef'.repeat(tenMb / 8)],
    ['base64 with padding', `${'QUJD'.repeat(tenMb / 4)}==`],
    ['JWT headers without dots', 'eyJ'.repeat(tenMb / 3)],
    ['an escaped credential value', `{"access_token":"${'\\a'.repeat(tenMb / 2)}"}`],
    ['a bearer header with spaces', `Bearer ${' '.repeat(tenMb)}x`],
  ];

  it.each(shapes)('redacts a 10 MB run of %s without overflowing the stack', (_, text) => {
    expect(() => redactText(text)).not.toThrow();
    expect(() => redactRecordingText(text)).not.toThrow();
  });

  it('still finds a key at the end of a long run of another shape', () => {
    const text = `${'zz'.repeat(1024 * 1024)} ${key}`;
    expect(redactText(text).endsWith(' [redacted]')).toBe(true);
    expect(redactRecordingText(`{"data":"${'a'.repeat(3_000_000)}","k":"${key}"}`)).not.toContain(key.slice(2));
  });
});
