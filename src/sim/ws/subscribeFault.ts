import { InvalidValueError } from '../../core/invalidValueError.js';

/**
 * A test fault (off by default): the market filter a client asks for is not the one the server
 * applies. The server then applies, and truthfully acknowledges, another filter, so the client's
 * ack check is what must notice.
 * - `applied: 'all'`: `market_ids` never reaches the server (as with a venue or proxy that drops a
 *   parameter it does not know); it applies all markets and its ack lists every market id.
 * - `applied: [ids]`: a requested filter is replaced by these ids.
 * Subscribes that ask for all markets are left alone, so the heartbeat oracle stream keeps working.
 */
export interface SubscribeFault {
  readonly applied: 'all' | readonly number[];
  /** Only subscribes to this channel; default every channel. */
  readonly channel?: string;
}

export function checkSubscribeFault(fault: SubscribeFault | undefined): SubscribeFault | undefined {
  if (fault === undefined || fault.applied === 'all') return fault;
  if (fault.applied.length === 0 || !fault.applied.every((id) => Number.isSafeInteger(id) && id >= 0)) {
    throw new InvalidValueError('subscribeFault.applied', fault.applied, "'all' or a non-empty list of market ids");
  }
  return { ...fault, applied: [...fault.applied] };
}

/**
 * The client frame as the server will read it under `fault`: a filtered subscribe (of the faulted
 * channel) gets its `market_ids` dropped or replaced; every other text passes unchanged, malformed
 * ones included (the frame handler answers those).
 */
export function applySubscribeFault(text: string, fault: SubscribeFault | undefined): string {
  if (fault === undefined) return text;
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof frame !== 'object' || frame === null || (frame as { method?: unknown }).method !== 'subscribe')
    return text;
  const params = (frame as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return text;
  const { market_ids: requested, ...rest } = params as { market_ids?: unknown; channel?: unknown };
  if (!Array.isArray(requested) || requested.length === 0) return text;
  if (fault.channel !== undefined && rest.channel !== fault.channel) return text;
  const rewritten = fault.applied === 'all' ? rest : { ...rest, market_ids: [...fault.applied] };
  return JSON.stringify({ ...frame, params: rewritten });
}
