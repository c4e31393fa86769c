import { addDecimals } from './decimal.js';
import { formatPlaces, roundHalfEven } from './displayDecimal.js';

/** A statement as shown: the start, each line, and the running total after each line. */
export interface FootedStatement {
  readonly start: string;
  readonly lines: readonly string[];
  readonly totals: readonly string[];
}

/**
 * A statement (a start, then lines added in order) rounded for the screen so that it adds up on
 * the screen: the start and each running total are the exact figures rounded half to even to
 * `places`, and each line is shown as the difference of the rounded totals before and after it.
 * A bank statement does the same with its running balance. So every total shown is its exact
 * value rounded, the lines shown add up to the totals shown to the last digit, and a line shown
 * is within one unit of the last place of its exact value (it can differ by one from the line
 * rounded by itself, never by more); a line that is exactly zero is shown as zero.
 */
export function footedStatement(start: string, lines: readonly string[], places: number): FootedStatement {
  let exact = start;
  let before = roundHalfEven(start, places, 'statement start');
  const shownLines: string[] = [];
  const totals: string[] = [];
  for (const line of lines) {
    exact = addDecimals(exact, line, 'statement line');
    const after = roundHalfEven(exact, places, 'statement total');
    shownLines.push(formatPlaces(after - before, places));
    totals.push(formatPlaces(after, places));
    before = after;
  }
  return { start: formatPlaces(roundHalfEven(start, places, 'statement start'), places), lines: shownLines, totals };
}
