/**
 * The redactor's searches, written as single left-to-right scans instead of regular expressions.
 * V8's regexp engine backtracks on the stack: the look-around and counted patterns the redactor
 * used (`(?<!…)[0-9a-f]{32,}(?!…)` and the like) threw "Maximum call stack size exceeded" on one run
 * of about 5.6 MB of letters and digits, which a venue frame can be. Each scan here visits every
 * character a bounded number of times and keeps no stack, whatever the input; each finds exactly
 * what its regexp found (a property test holds them equal on inputs the regexps can take).
 */

const ALNUM = 1; // [0-9A-Za-z]
const BASE64 = 2; // [A-Za-z0-9+/_-]
const URL64 = 4; // [A-Za-z0-9_-]
const NAME = 8; // [A-Za-z_-]
const HEX = 16; // [0-9a-fA-F]

const CLASSES = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  const c = String.fromCharCode(code);
  const letter = /[A-Za-z]/.test(c);
  const digit = /[0-9]/.test(c);
  let bits = 0;
  if (letter || digit) bits |= ALNUM | BASE64 | URL64;
  if (c === '+' || c === '/') bits |= BASE64;
  if (c === '_' || c === '-') bits |= BASE64 | URL64 | NAME;
  if (letter) bits |= NAME;
  if (/[0-9a-fA-F]/.test(c)) bits |= HEX;
  CLASSES[code] = bits;
}

function is(text: string, at: number, bits: number): boolean {
  const code = text.charCodeAt(at);
  return code < 128 && ((CLASSES[code] ?? 0) & bits) !== 0;
}

/** The end of the run of `bits` characters that starts at `from`. */
function runEnd(text: string, from: number, bits: number): number {
  let at = from;
  while (at < text.length && is(text, at, bits)) at++;
  return at;
}

/** Builds the output only once something is replaced. */
class Rewrite {
  private readonly parts: string[] = [];
  private copied = 0;

  constructor(private readonly text: string) {}

  replace(start: number, end: number, by: string): void {
    this.parts.push(this.text.slice(this.copied, start), by);
    this.copied = end;
  }

  result(): string {
    if (this.parts.length === 0) return this.text;
    this.parts.push(this.text.slice(this.copied));
    return this.parts.join('');
  }
}

/**
 * Every run of 16 bytes or more of hex (with or without `0x`) that is not part of a longer word
 * (the old `/(?<![0-9A-Za-z])(?:0[xX])?[0-9a-fA-F]{32,}(?![0-9A-Za-z])/g`), replaced by `judge`.
 */
export function replaceHexRuns(text: string, judge: (run: string) => string): string {
  const out = new Rewrite(text);
  for (let at = 0; at < text.length;) {
    if (!is(text, at, ALNUM)) {
      at++;
      continue;
    }
    const end = runEnd(text, at, ALNUM);
    const prefixed = text[at] === '0' && (text[at + 1] === 'x' || text[at + 1] === 'X');
    const digits = prefixed ? at + 2 : at;
    if (end - digits >= 32 && runEnd(text, digits, HEX) === end) {
      const run = text.slice(at, end);
      const by = judge(run);
      if (by !== run) out.replace(at, end, by);
    }
    at = end;
  }
  return out.result();
}

/**
 * Every run of 16 bytes or more of base64 or base64url with at most two `=` of padding, not part
 * of a longer one (the old `/(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{22,}={0,2}(?![A-Za-z0-9+/=_-])/g`),
 * replaced by `judge`.
 */
export function replaceBase64Runs(text: string, judge: (run: string) => string): string {
  const out = new Rewrite(text);
  for (let at = 0; at < text.length;) {
    if (!is(text, at, BASE64)) {
      at++;
      continue;
    }
    const end = runEnd(text, at, BASE64);
    let padded = end;
    while (padded < text.length && text[padded] === '=') padded++;
    if (end - at >= 22 && padded - end <= 2 && (padded === text.length || !is(text, padded, BASE64))) {
      const run = text.slice(at, padded);
      const by = judge(run);
      if (by !== run) out.replace(at, padded, by);
    }
    at = end;
  }
  return out.result();
}

/** Every JWT (the old `/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\/g`), replaced by `by`. */
export function replaceJwts(text: string, by: string): string {
  const out = new Rewrite(text);
  for (let at = text.indexOf('eyJ'); at >= 0;) {
    const header = runEnd(text, at + 3, URL64);
    const payload = text[header] === '.' ? runEnd(text, header + 1, URL64) : header;
    if (payload > header + 1 && text[payload] === '.') {
      const end = runEnd(text, payload + 1, URL64);
      out.replace(at, end, by);
      at = text.indexOf('eyJ', end);
    } else {
      // Any later start inside what was read ends where this one failed, and fails there too.
      at = text.indexOf('eyJ', Math.max(at + 1, text[header] === '.' ? Math.max(header + 1, payload) : header));
    }
  }
  return out.result();
}

const CREDENTIAL_SUFFIXES = [
  'token',
  'jwt',
  'bearer',
  'key',
  'secret',
  'mnemonic',
  'password',
  'authorization',
  'cookie',
] as const;

/**
 * Every JSON member `"name": "value"` whose name ends like a credential's (token, jwt, key, ...;
 * the old `CREDENTIAL_MEMBER` regexp), its value replaced when `redact(name)` says so.
 */
export function replaceCredentialMembers(text: string, redact: (name: string) => boolean, by: string): string {
  const out = new Rewrite(text);
  for (let at = text.indexOf('"'); at >= 0;) {
    const member = credentialMember(text, at);
    if (member === undefined) {
      at = text.indexOf('"', at + 1);
      continue;
    }
    if (redact(member.name)) out.replace(member.valueStart, member.end, `"${by}"`);
    at = text.indexOf('"', member.end);
  }
  return out.result();
}

interface Member {
  readonly name: string;
  /** The value's opening quote. */
  readonly valueStart: number;
  /** Just after the value's closing quote. */
  readonly end: number;
}

function credentialMember(text: string, quote: number): Member | undefined {
  const nameEnd = runEnd(text, quote + 1, NAME);
  if (text[nameEnd] !== '"') return undefined;
  const name = text.slice(quote + 1, nameEnd);
  const lower = name.toLowerCase();
  if (!CREDENTIAL_SUFFIXES.some((suffix) => lower.endsWith(suffix))) return undefined;
  let at = skipSpaces(text, nameEnd + 1);
  if (text[at] !== ':') return undefined;
  at = skipSpaces(text, at + 1);
  if (text[at] !== '"') return undefined;
  const end = stringEnd(text, at + 1);
  return end === undefined ? undefined : { name, valueStart: at, end };
}

/** Just after the closing quote of a JSON string whose body starts at `from`; undefined if it has none. */
function stringEnd(text: string, from: number): number | undefined {
  for (let at = from; at < text.length; at++) {
    const c = text[at];
    if (c === '"') return at + 1;
    if (c === '\\') {
      // A regexp's `.` after the backslash: any character but a line terminator.
      if (at + 1 >= text.length || isLineTerminator(text.charCodeAt(at + 1))) return undefined;
      at++;
    }
  }
  return undefined;
}

function skipSpaces(text: string, from: number): number {
  let at = from;
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

function isLineTerminator(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

/** What a regexp's `\s` matches. */
function isSpace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
