import { performance } from 'node:perf_hooks';
import type { RestClient } from '../../../venue/rest/restClient.js';
import { VenueError } from '../../../venue/venueError.js';
import { VenueTransportError } from '../../../venue/venueTransportError.js';
import { NONCE_ERROR_KINDS, type BotMetrics } from './botMetrics.js';

/**
 * The REST client with every call timed and every error counted by kind, for the metrics: one
 * wrapper at the runtime's edge instead of hooks in the venue layer. Signed actions and reads
 * alike pass through it (the engine's sender uses this client).
 */
export function timedRestClient(rest: RestClient, metrics: BotMetrics): RestClient {
  const timed: Record<string, unknown> = {};
  for (const [endpoint, call] of Object.entries(rest) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    timed[endpoint] = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        const result = await call(...args);
        metrics.restLatency.observe({ endpoint, outcome: 'ok' }, (performance.now() - started) / 1000);
        return result;
      } catch (error) {
        metrics.restLatency.observe({ endpoint, outcome: 'error' }, (performance.now() - started) / 1000);
        const kind = errorKind(error);
        metrics.venueErrors.inc({ endpoint, kind });
        if (NONCE_ERROR_KINDS.has(kind)) metrics.nonceErrors.inc({ kind });
        throw error;
      }
    };
  }
  return timed as unknown as RestClient;
}

/** The contract error when the venue named one, else the parsed kind; transport_* when no answer came. */
export function errorKind(error: unknown): string {
  if (error instanceof VenueError)
    return error.kind === 'Unknown' && error.errorName !== undefined ? error.errorName : error.kind;
  if (error instanceof VenueTransportError) return `transport_${error.kind}`;
  return 'other';
}
