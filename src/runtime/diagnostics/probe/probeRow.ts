import type { WireDecodeFailure } from '../../../venue/wireDecodeFailure.js';

/**
 * ok: read or subscribed, and everything that came decoded. departed: something did not decode
 * (or a book checksum did not match). failed: no usable answer at all (HTTP error, no ack, a
 * refused subscribe). skipped: not tried (no keys, no signer).
 */
export type ProbeStatus = 'ok' | 'departed' | 'failed' | 'skipped';

/** One endpoint or channel as `perpbot probe` found it. */
export interface ProbeRow {
  readonly kind: 'rest' | 'ws';
  /** `GET /v1/markets`, `GET /v1/account/position?market_id=1`, `orderbook [1]`. */
  readonly name: string;
  readonly status: ProbeStatus;
  /** A short line: counts when ok, the departure or the error otherwise, why when skipped. */
  readonly detail: string;
  /** The first departure, when one was seen. */
  readonly failure?: WireDecodeFailure;
  /** The redacted sample of that departure, when it could be saved. */
  readonly sample?: string;
}

/** Exit 0 only when nothing departed or failed (skipped rows were not tried, and say why). */
export function probePassed(rows: readonly ProbeRow[]): boolean {
  return rows.every((row) => row.status === 'ok' || row.status === 'skipped');
}

/** The detail of a departure: where, what was expected and what came. */
export function departureDetail(failure: WireDecodeFailure, occurrences = 1): string {
  const times = occurrences > 1 ? ` (${occurrences} times)` : '';
  return `${failure.field}: expected ${failure.expected}, received ${failure.received}${times}`;
}
