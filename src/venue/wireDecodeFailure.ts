import type { z } from 'zod';

/**
 * One body or frame from the venue that the bot's decoders could not read: where it came from,
 * the first field that departed from the expected shape, what was expected there and what arrived.
 * The runtime counts these (`perpbot_wire_decode_failures_total{source}`), logs each distinct shape
 * once and keeps a redacted sample; `perpbot probe` prints them as rows.
 */
export interface WireDecodeFailure {
  /** `ws:<channel>` for a frame (`ws:control` for acks and replies), `rest:<METHOD> <path>` for a body. */
  readonly source: string;
  /** Dotted path inside the body or frame, e.g. `data.bids.0.price`; `(frame)` for the whole of it. */
  readonly field: string;
  /** What the decoder accepts there, in words: `decimal string below 1e18`. */
  readonly expected: string;
  /** What arrived: its JSON type and a short excerpt, e.g. `string "63218500000000000000000"`. */
  readonly received: string;
}

/** Where decode failures go; the venue clients call it and carry on (the frame or body is dropped). */
export type WireDecodeFailureSink = (failure: WireDecodeFailure, raw: unknown) => void;

/** The key that tells two failures of the same shape apart from two different departures. */
export function wireFailureShapeKey(failure: WireDecodeFailure): string {
  // Array indices do not make a different shape: bids.0.price and bids.7.price are one departure.
  return `${failure.source}|${failure.field.replace(/\.\d+(?=\.|$)/g, '.*')}|${failure.expected}|${jsonTypeOf(failure.received)}`;
}

/** The JSON type and a short excerpt of a value, for `received`. Never more than ~60 characters of it. */
export function describeReceived(value: unknown): string {
  if (value === undefined) return 'nothing (field absent)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (typeof value === 'object') return 'object';
  if (typeof value === 'string')
    return `string ${JSON.stringify(value.length > 48 ? `${value.slice(0, 48)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return typeof value;
}

/** The value at a dotted path of a parsed JSON body, or undefined where the path leaves it. */
export function valueAtPath(root: unknown, path: readonly PropertyKey[]): unknown {
  let here: unknown = root;
  for (const key of path) {
    if (typeof here !== 'object' || here === null) return undefined;
    here = (here as Record<PropertyKey, unknown>)[key];
  }
  return here;
}

/** A failure from the first issue of a zod error over `raw` (the parsed JSON that was refused). */
export function failureFromZod(source: string, error: z.ZodError, raw: unknown): WireDecodeFailure {
  const issue = error.issues[0];
  if (issue === undefined)
    return { source, field: '(frame)', expected: 'a valid body', received: describeReceived(raw) };
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  return {
    source,
    field: path.length === 0 ? '(frame)' : path.join('.'),
    expected: expectedOf(issue),
    received: describeReceived(valueAtPath(raw, path)),
  };
}

function expectedOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return String(issue.expected);
  if (issue.code === 'invalid_value') return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  // Refinements and formats carry their rule in the message ("decimal string below 1e18").
  return issue.message;
}

function jsonTypeOf(received: string): string {
  return received.split(' ')[0] ?? received;
}
