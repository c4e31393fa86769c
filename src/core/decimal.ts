import { BoundedMap } from './boundedMap.js';
import { InvalidValueError } from './invalidValueError.js';

/**
 * Exact decimal arithmetic on strings and fixed-point bigints. Money never passes through a
 * float: wire values stay decimal strings, and inside they are bigints with an explicit scale.
 * Rounding happens only when the caller names a mode; otherwise an inexact result is an error.
 */

/** `down` = toward -infinity, `up` = toward +infinity, `nearest` = half away from zero. */
export type Rounding = 'down' | 'up' | 'nearest';

/** value = units / 10^scale */
export interface FixedPoint {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL_PATTERN = /^(-)?(\d+)(?:\.(\d+))?$/;

export function isDecimalString(text: unknown): text is string {
  return typeof text === 'string' && DECIMAL_PATTERN.test(text);
}

/** Parses "12.340" into { units: 12340n, scale: 3 }. Refuses exponents, spaces, "", "1.", ".5". */
export function parseDecimal(text: unknown, field: string): FixedPoint {
  if (typeof text !== 'string') throw new InvalidValueError(field, text, 'a decimal string such as "12.5"');
  const parsed = decimalOrUndefined(text);
  if (parsed === undefined)
    throw new InvalidValueError(field, text, 'a decimal string such as "12.5" (no exponent, no spaces)');
  return parsed;
}

/** `parseDecimal`'s value, or undefined for anything but a decimal string: for checks with their own rule. */
export function decimalOrUndefined(text: unknown): FixedPoint | undefined {
  if (typeof text !== 'string') return undefined;
  const known = parsedDecimals.get(text);
  if (known !== undefined) return known;
  const scanned = scanDecimal(text);
  return scanned === undefined ? undefined : remember(text, scanned);
}

/**
 * Records a decimal text with the exact value it was formatted from, so that whoever reads the
 * text next finds it parsed: the pre-trade checks do this for an order's snapped size and price,
 * which the guards read right after. The value must equal the text's (any scale).
 */
export function rememberDecimal(text: string, value: FixedPoint): void {
  // A text seen before is already there with an equal value (the common case: recurring prices).
  if (!parsedDecimals.has(text)) remember(text, value);
}

function remember(text: string, value: FixedPoint): FixedPoint {
  // Frozen: every later reader of this text shares the object, so none may change it.
  const frozen = Object.freeze(value);
  parsedDecimals.set(text, frozen);
  return frozen;
}

/**
 * Decimals parsed, remembered and frozen (shared by every reader of the text): the engine and
 * the strategies parse the same few sizes, prices, limits and zeros over and over (a replay: about
 * 21 parses a frame, nine in ten of a text parsed before).
 */
const parsedDecimals = new BoundedMap<string, FixedPoint>(10_000);

/**
 * `DECIMAL_PATTERN` read by hand (an optional "-", digits, then "." and digits or nothing): the
 * regex's match array on every decimal operation was a hot spot. A property test holds the two equal.
 */
function scanDecimal(text: string): FixedPoint | undefined {
  const start = text.charCodeAt(0) === 45 ? 1 : 0; // "-"
  let dot = -1;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 && dot < 0)
      dot = i; // the one "."
    else if (c < 48 || c > 57) return undefined; // not 0-9
  }
  const end = dot < 0 ? text.length : dot;
  if (end === start || dot === text.length - 1) return undefined; // no whole digits, or "1."
  const digits = dot < 0 ? text.slice(start) : text.slice(start, dot) + text.slice(dot + 1);
  const units = BigInt(digits);
  return { units: start === 1 ? -units : units, scale: dot < 0 ? 0 : text.length - dot - 1 };
}

/** 10^0 … 10^80, computed once: a bigint power on every decimal operation was a hot spot. */
const POWERS_OF_10: readonly bigint[] = Array.from({ length: 81 }, (_, i) => 10n ** BigInt(i));

export function pow10(exponent: number): bigint {
  return POWERS_OF_10[exponent] ?? 10n ** BigInt(exponent);
}

/** Integer division with an explicit rounding mode; `undefined` mode means it must be exact. */
export function divideRounded(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  let n = numerator;
  let d = denominator;
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  switch (rounding) {
    case 'down':
      return n < 0n ? q - 1n : q;
    case 'up':
      return n > 0n ? q + 1n : q;
    case 'nearest': {
      const twice = (r < 0n ? -r : r) * 2n;
      if (twice >= d) return n < 0n ? q - 1n : q + 1n;
      return q;
    }
  }
}

/** Brings a parsed decimal to `scale` places. Losing digits needs a rounding mode. */
export function rescale(value: FixedPoint, scale: number, field: string, rounding?: Rounding): bigint {
  if (value.scale <= scale) return value.units * pow10(scale - value.scale);
  const divisor = pow10(value.scale - scale);
  if (value.units % divisor !== 0n && rounding === undefined) {
    throw new InvalidValueError(
      field,
      fixedToDecimal(value.units, value.scale),
      `at most ${scale} decimal places`,
      'round the value yourself or name a rounding mode (down, up, nearest)',
    );
  }
  return divideRounded(value.units, divisor, rounding ?? 'down');
}

/** "1.5" at scale 18 -> 1500000000000000000n. */
export function decimalToFixed(text: unknown, scale: number, field: string, rounding?: Rounding): bigint {
  return rescale(parseDecimal(text, field), scale, field, rounding);
}

/** 1500000000000000000n at scale 18 -> "1.5". Canonical: no trailing zeros, no trailing point. */
export function fixedToDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (digits.length <= scale) digits = digits.padStart(scale + 1, '0');
  // The trailing zeros of the fraction dropped by hand: a regex replace on every decimal
  // operation (sums, marks, PnL) was a hot spot of a replay.
  const cut = digits.length - scale;
  let end = digits.length;
  while (end > cut && digits.charCodeAt(end - 1) === 48) end--;
  const body = end > cut ? `${digits.slice(0, cut)}.${digits.slice(cut, end)}` : digits.slice(0, cut);
  return negative && body !== '0' ? `-${body}` : body;
}

/** Canonical form of a decimal string: "01.50" -> "1.5", "-0" -> "0". */
export function normalizeDecimal(text: unknown, field: string): string {
  const v = parseDecimal(text, field);
  return fixedToDecimal(v.units, v.scale);
}

/**
 * How many whole `unit`s make `value`: "0.003" / "0.001" -> 3n. Not a whole number of units is
 * an error unless a rounding mode is named.
 */
export function countUnits(value: unknown, unit: unknown, field: string, rounding?: Rounding): bigint {
  const v = parseDecimal(value, field);
  const u = parseDecimal(unit, `${field} unit`);
  if (u.units <= 0n) throw new InvalidValueError(`${field} unit`, unit, 'a positive decimal');
  const scale = Math.max(v.scale, u.scale);
  const n = v.units * pow10(scale - v.scale);
  const d = u.units * pow10(scale - u.scale);
  if (n % d !== 0n && rounding === undefined) {
    throw new InvalidValueError(
      field,
      value,
      `a whole multiple of ${fixedToDecimal(u.units, u.scale)}`,
      'name a rounding mode (down, up, nearest) to snap it to the grid',
    );
  }
  return divideRounded(n, d, rounding ?? 'down');
}

/** count × unit as an exact decimal string: 3n × "0.001" -> "0.003". */
export function multiplyUnits(count: bigint, unit: unknown, field = 'unit'): string {
  const u = parseDecimal(unit, field);
  return fixedToDecimal(count * u.units, u.scale);
}

/** Exact product of two decimal strings. */
export function multiplyDecimals(a: unknown, b: unknown, field = 'value'): string {
  const x = parseDecimal(a, field);
  const y = parseDecimal(b, field);
  return fixedToDecimal(x.units * y.units, x.scale + y.scale);
}

/** Exact sum of two decimal strings. */
export function addDecimals(a: unknown, b: unknown, field = 'value'): string {
  const x = parseDecimal(a, field);
  const y = parseDecimal(b, field);
  const scale = Math.max(x.scale, y.scale);
  return fixedToDecimal(x.units * pow10(scale - x.scale) + y.units * pow10(scale - y.scale), scale);
}

/** -a, canonical ("0" stays "0"). */
export function negateDecimal(a: unknown, field = 'value'): string {
  const x = parseDecimal(a, field);
  return fixedToDecimal(-x.units, x.scale);
}

export function compareDecimals(a: unknown, b: unknown, field = 'value'): -1 | 0 | 1 {
  const x = parseDecimal(a, field);
  const y = parseDecimal(b, field);
  const scale = Math.max(x.scale, y.scale);
  const l = x.units * pow10(scale - x.scale);
  const r = y.units * pow10(scale - y.scale);
  return l < r ? -1 : l > r ? 1 : 0;
}

export const WEI_DECIMALS = 18;

/** An integer wei string (18 decimals) to an exact decimal: "65000500000000000000000" -> "65000.5". */
export function weiToDecimal(wei: string | bigint, field = 'wei'): string {
  const units = typeof wei === 'bigint' ? wei : parseWeiInteger(wei, field);
  return fixedToDecimal(units, WEI_DECIMALS);
}

/**
 * The same as `weiToDecimal` for a non-negative integer string, by string slicing alone: the hot
 * path of market data, where BigInt round trips dominate. The caller has checked `^\d+$`.
 */
export function weiTextToDecimal(wei: string): string {
  return weiDigitsToDecimal(wei, 0, wei.length);
}

/**
 * `weiTextToDecimal` of `text.slice(start, end)`, read in place: the oracle's prices are
 * converted straight from the frame's text, without a string per price first. The caller has
 * checked that the range is digits, at least one.
 */
export function weiDigitsToDecimal(text: string, start: number, end: number): string {
  let first = start;
  while (first < end - 1 && text.charCodeAt(first) === 48) first++;
  const point = end - WEI_DECIMALS;
  let last = end;
  if (point > first) {
    while (last > point && text.charCodeAt(last - 1) === 48) last--;
    const whole = text.slice(first, point);
    return last === point ? whole : `${whole}.${text.slice(point, last)}`;
  }
  while (last > first && text.charCodeAt(last - 1) === 48) last--;
  if (last === first) return '0';
  return `0.${WEI_ZEROS.slice(0, first - point)}${text.slice(first, last)}`;
}

const WEI_ZEROS = '0'.repeat(WEI_DECIMALS);

/**
 * The mirror of `weiTextToDecimal`: a non-negative decimal string with at most 18 fraction digits
 * to its integer wei text, by string slicing alone ("63218.5" -> "63218500000000000000000",
 * "0.0" -> "0"). The orderbook checksum covers the wei of every level of the book on every update,
 * so this stays off BigInt. The caller has checked `^\d+(\.\d{1,18})?$`.
 */
export function decimalTextToWeiText(decimal: string): string {
  const point = decimal.indexOf('.');
  const digits =
    point < 0
      ? decimal + WEI_ZEROS
      : decimal.slice(0, point) + decimal.slice(point + 1) + WEI_ZEROS.slice(decimal.length - point - 1);
  let start = 0;
  while (start < digits.length - 1 && digits.charCodeAt(start) === 48) start++;
  return start === 0 ? digits : digits.slice(start);
}

export function decimalToWei(text: unknown, field: string, rounding?: Rounding): bigint {
  return decimalToFixed(text, WEI_DECIMALS, field, rounding);
}

function parseWeiInteger(text: string, field: string): bigint {
  if (!/^-?\d+$/.test(text)) throw new InvalidValueError(field, text, 'an integer string in wei (18 decimals)');
  return BigInt(text);
}
