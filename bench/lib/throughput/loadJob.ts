import type { OrderSequenceRange } from './orderSequences.js';

/**
 * What the parent hands the load client (a JSON file) and what the client answers (an IPC
 * message). Requests are complete, signed JSON bodies: the client only frames and sends them.
 */
export interface LoadJob {
  /** http://host:port of the server under load. */
  readonly url: string;
  /** Keep-alive connections, one request in flight on each. */
  readonly connections: number;
  readonly requests: readonly LoadRequest[];
  /** Check that place answers carry venue order ids and report the range of their sequence numbers. */
  readonly readOrderIds: boolean;
}

export interface LoadRequest {
  readonly kind: 'place' | 'cancel';
  readonly pair: number;
  readonly anchor: number;
  readonly path: string;
  readonly body: string;
}

export interface LoadResult {
  readonly requests: number;
  readonly ok: number;
  readonly failed: number;
  /** Wall time from the first request written to the last answer read. */
  readonly elapsedMs: number;
  readonly statuses: Readonly<Record<string, number>>;
  /** Up to five refused answers, for the error message. */
  readonly failures: readonly string[];
  /** Sequence numbers (wide id >> 1) of the orders placed: lowest, highest (decimal strings), how many distinct. */
  readonly orderSequences?: OrderSequenceRange;
  /** CPU the client process used over the run, ms (it must stay well below one core). */
  readonly clientCpuMs: number;
  /** Set when the run could not finish (a connection dropped, a cancel waited for a failed place). */
  readonly error?: string;
}
