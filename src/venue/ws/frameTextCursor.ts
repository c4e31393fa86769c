/**
 * A position in a frame's JSON text and the few strict readers the hot-frame scanners need. Each
 * reader accepts only a plain spelling that `JSON.parse` reads the same way (no escapes, no
 * whitespace, integers without sign, fraction or exponent) and answers "no" to anything else
 * without moving on: the scanners then leave the frame to `JSON.parse` and the fast decoders,
 * which decide it exactly as before. So a reader may be narrower than JSON, never wider.
 *
 * Numbers answer `NOT_READ` (-1) and texts `undefined` for "not this plain spelling".
 */
export const NOT_READ = -1;

const QUOTE = 0x22;
const COLON = 0x3a;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
/** 15 digits stay below 2^53: every such integer is a safe one, as z.number().int() wants. */
const MAX_INT_DIGITS = 15;

export class FrameTextCursor {
  pos = 0;

  constructor(readonly text: string) {}

  /** Consumes `literal` if the text continues with it. */
  take(literal: string): boolean {
    if (!this.text.startsWith(literal, this.pos)) return false;
    this.pos += literal.length;
    return true;
  }

  /** Consumes one character if it is `code`. */
  takeChar(code: number): boolean {
    if (this.text.charCodeAt(this.pos) !== code) return false;
    this.pos++;
    return true;
  }

  peek(): number {
    return this.text.charCodeAt(this.pos);
  }

  atEnd(): boolean {
    return this.pos === this.text.length;
  }

  /**
   * A non-negative integer as JSON writes it (`0` or no leading zero), at most 15 digits. A
   * following `.`, `e` or digit is left for the caller's next structural check, which refuses it.
   */
  uint(): number {
    const { text } = this;
    const start = this.pos;
    let pos = start;
    let value = 0;
    let code = text.charCodeAt(pos);
    if (code === ZERO) {
      this.pos = pos + 1;
      return 0;
    }
    while (code >= ZERO && code <= NINE) {
      value = value * 10 + (code - ZERO);
      code = text.charCodeAt(++pos);
    }
    if (pos === start || pos - start > MAX_INT_DIGITS) return NOT_READ;
    this.pos = pos;
    return value;
  }

  /** A quoted run of `min`..`max` ASCII digits; the digits, without the quotes. */
  digitString(min: number, max: number): string | undefined {
    const { text } = this;
    if (text.charCodeAt(this.pos) !== QUOTE) return undefined;
    const start = this.pos + 1;
    const end = skipDigits(text, start);
    const length = end - start;
    if (length < min || length > max || text.charCodeAt(end) !== QUOTE) return undefined;
    this.pos = end + 1;
    return text.slice(start, end);
  }

  /** A quoted `BOOK_DECIMAL_PATTERN` (`^\d{1,18}(?:\.\d{1,18})?$`), checked as it is read. */
  bookDecimal(): string | undefined {
    const { text } = this;
    if (text.charCodeAt(this.pos) !== QUOTE) return undefined;
    const start = this.pos + 1;
    let end = skipDigits(text, start);
    if (end === start || end - start > 18) return undefined;
    if (text.charCodeAt(end) === DOT) {
      const fraction = end + 1;
      end = skipDigits(text, fraction);
      if (end === fraction || end - fraction > 18) return undefined;
    }
    if (text.charCodeAt(end) !== QUOTE) return undefined;
    this.pos = end + 1;
    return text.slice(start, end);
  }

  /** A quoted string with no escape and no control character: its text is the value JSON.parse gives. */
  plainString(): string | undefined {
    const { text } = this;
    if (text.charCodeAt(this.pos) !== QUOTE) return undefined;
    const start = this.pos + 1;
    // A sticky regex runs native code over a long string (a tx hash), where a loop in JavaScript
    // cost several times more.
    PLAIN_STRING_REST.lastIndex = start;
    if (!PLAIN_STRING_REST.test(text)) return undefined;
    this.pos = PLAIN_STRING_REST.lastIndex;
    return text.slice(start, this.pos - 1);
  }

  /**
   * An object key, up to the next quote, with the colon after it; undefined if there is none. Its
   * text is not checked for escapes: the scanners only compare it with names of their own, none
   * of which holds a backslash or a control character, and refuse any other.
   */
  key(): string | undefined {
    const { text, pos } = this;
    if (text.charCodeAt(pos) !== QUOTE) return undefined;
    const end = text.indexOf('"', pos + 1);
    if (end < 0 || text.charCodeAt(end + 1) !== COLON) return undefined;
    this.pos = end + 2;
    return text.slice(pos + 1, end);
  }
}

/**
 * The rest of a JSON string after its opening quote, the closing quote included, with no escape
 * and no control character (JSON.parse refuses a raw one; that is the rule checked here).
 */
// eslint-disable-next-line no-control-regex
const PLAIN_STRING_REST = /[^"\\\u0000-\u001f]*"/y;

function skipDigits(text: string, from: number): number {
  let pos = from;
  let code = text.charCodeAt(pos);
  while (code >= ZERO && code <= NINE) code = text.charCodeAt(++pos);
  return pos;
}
