import { compareDecimals, fixedToDecimal, negateDecimal, parseDecimal, pow10 } from '../core/decimal.js';

/**
 * Exact price arithmetic for strategies, on decimal strings: no float ever touches a price.
 * Results may have more decimals than the market's tick; the intent's rounding mode snaps them.
 */

/** price × (1 + bps / 10,000), exactly. bps may be negative or fractional ("2.5"). */
export function offsetByBps(price: string, bps: number | string): string {
  const p = parseDecimal(price, 'price');
  const b = parseDecimal(typeof bps === 'number' ? numberToDecimal(bps) : bps, 'bps');
  // price × (10^4 × 10^b.scale + b) / (10^4 × 10^b.scale)
  const denominatorScale = 4 + b.scale;
  const factor = pow10(denominatorScale) + b.units;
  return fixedToDecimal(p.units * factor, p.scale + denominatorScale);
}

/** (a − b) / b in basis points, as an exact decimal string truncated to 4 decimals. */
export function changeBps(from: string, to: string): string {
  const a = parseDecimal(from, 'from');
  const b = parseDecimal(to, 'to');
  const scale = Math.max(a.scale, b.scale);
  const x = a.units * pow10(scale - a.scale);
  const y = b.units * pow10(scale - b.scale);
  if (x === 0n) return '0';
  // bps × 10^4 to keep four decimals
  return fixedToDecimal(((y - x) * 10n ** 8n) / x, 4);
}

export function mid(a: string, b: string): string {
  const x = parseDecimal(a, 'price');
  const y = parseDecimal(b, 'price');
  const scale = Math.max(x.scale, y.scale) + 1;
  const sum = x.units * pow10(scale - x.scale) + y.units * pow10(scale - y.scale);
  return fixedToDecimal(sum / 2n, scale);
}

/** amount × bps / 10,000, exactly: `applyBps('65000', 10)` is "65" (10 bps of 65,000). */
export function applyBps(amount: string, bps: number | string): string {
  const a = parseDecimal(amount, 'amount');
  const b = parseDecimal(typeof bps === 'number' ? numberToDecimal(bps) : bps, 'bps');
  return fixedToDecimal(a.units * b.units, a.scale + b.scale + 4);
}

/** part / whole in basis points, truncated toward zero to 4 decimals: `bpsOf('65', '65000')` is "10". */
export function bpsOf(part: string, whole: string): string {
  const a = parseDecimal(part, 'part');
  const b = parseDecimal(whole, 'whole');
  if (b.units === 0n) throw new RangeError('bpsOf: the whole is zero');
  const scale = Math.max(a.scale, b.scale);
  const x = a.units * pow10(scale - a.scale);
  const y = b.units * pow10(scale - b.scale);
  return fixedToDecimal((x * 10n ** 8n) / y, 4);
}

/** (ask − bid) / mid in basis points, truncated to 4 decimals: the quoted spread. */
export function spreadBps(bid: string, ask: string): string {
  const m = mid(bid, ask);
  const b = parseDecimal(bid, 'bid');
  const a = parseDecimal(ask, 'ask');
  const scale = Math.max(a.scale, b.scale);
  const width = fixedToDecimal(a.units * pow10(scale - a.scale) - b.units * pow10(scale - b.scale), scale);
  return bpsOf(width, m);
}

export function isAbove(a: string, b: string): boolean {
  return compareDecimals(a, b) > 0;
}

export function isBelow(a: string, b: string): boolean {
  return compareDecimals(a, b) < 0;
}

export function absDecimal(a: string): string {
  return a.startsWith('-') ? a.slice(1) : a;
}

export { negateDecimal };

/** Integers only, so a config number such as 12 or -3 becomes an exact decimal. */
function numberToDecimal(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`bps must be finite, got ${n}`);
  // Config bps are small and written as numbers: go through the shortest round-trip form.
  const text = String(n);
  if (/e/i.test(text)) throw new RangeError(`bps ${text} is out of range`);
  return text;
}
