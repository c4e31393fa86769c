import type { Address } from '../../core/address.js';
import type { AuthReply, ErrorFrame, UnsubscribedAck } from '../../venue/schemas/wsFramesControl.js';
import type { CanonicalSubscribedAck, CanonicalSubscribeRefusal } from '../../venue/schemas/wsWireCanonical.js';

/**
 * Control replies the server sends, typed by the client's schemas so a shape drift fails the
 * typecheck. Texts are part of the simulator's contract (docs/spec-gaps/simulator.md, "Simulator WebSocket server").
 */

/** `subscribed to orderbook for 2 market(s)` / `subscribed to oracle for all markets` (`filter` empty = all). */
export function subscribedMessage(channel: string, filter: readonly number[]): string {
  return filter.length === 0
    ? `subscribed to ${channel} for all markets`
    : `subscribed to ${channel} for ${filter.length} market(s)`;
}

/**
 * The spec's acknowledgement: `data.market_ids` lists the ids actually applied. `filter` is the
 * subscription's filter, empty for none; with none every market applies, so the ack lists all of
 * `venueMarketIds` (sorted) and the message says "all markets".
 */
export function subscribedAck(
  channel: string,
  filter: readonly number[],
  venueMarketIds: readonly number[],
): CanonicalSubscribedAck {
  const applied = filter.length === 0 ? [...venueMarketIds].sort((a, b) => a - b) : [...filter];
  return {
    type: 'subscribed',
    method: 'subscribe',
    status: 'success',
    message: subscribedMessage(channel, filter),
    channel,
    data: { market_ids: applied },
  };
}

/**
 * A refused subscribe, as the venue refuses one (venue-wire.md §3, subscribe refusal): the ack
 * frame with `status: "error"` and the venue's words ("invalid channel: <name>", "authentication
 * required for <name> channel"), not an error frame.
 */
export function subscribeRefusal(channel: string, message: string): CanonicalSubscribeRefusal {
  return { type: 'subscribed', method: 'subscribe', status: 'error', channel, message };
}

export function unsubscribedAck(channel: string): UnsubscribedAck {
  return {
    type: 'unsubscribed',
    method: 'unsubscribe',
    status: 'success',
    message: `unsubscribed from ${channel}`,
    channel,
  };
}

/**
 * gRPC-style status names the server's WebSocket refusals carry in `code`, as REST errors do:
 * bad input is InvalidArgument, refused credentials Unauthenticated, another account's data
 * PermissionDenied, the inbound rate limit ResourceExhausted, a server bug Internal.
 */
export type WsStatusName =
  'InvalidArgument' | 'Unauthenticated' | 'PermissionDenied' | 'ResourceExhausted' | 'Internal';

/**
 * An error frame with `message` sent as given. Used directly only for texts seen on the real
 * venue (`invalid channel: <name>`, `authentication required for <name> channel`), which stay
 * verbatim (docs/spec-gaps/simulator.md); everything else goes through `statusErrorFrame`.
 */
export function errorFrame(
  message: string,
  extra: { readonly method?: string; readonly channel?: string; readonly code?: WsStatusName } = {},
): ErrorFrame {
  return {
    type: 'error',
    status: 'error',
    ...(extra.code === undefined ? {} : { code: extra.code }),
    message,
    ...(extra.method === undefined ? {} : { method: extra.method }),
    ...(extra.channel === undefined ? {} : { channel: extra.channel }),
  };
}

/** An error frame in the REST errors' words: `message` is `<code>: <reason>`, `code` the status name. */
export function statusErrorFrame(
  code: WsStatusName,
  reason: string,
  extra: { readonly method?: string; readonly channel?: string } = {},
): ErrorFrame {
  return errorFrame(`${code}: ${reason}`, { ...extra, code });
}

/** A refused auth frame: the full error text and its status name. */
export interface WsAuthRefusal {
  readonly ok: false;
  readonly code: WsStatusName;
  /** `<code>: <reason>`. */
  readonly message: string;
}

export function authRefusal(code: WsStatusName, reason: string): WsAuthRefusal {
  return { ok: false, code, message: `${code}: ${reason}` };
}

export function authReply(
  method: 'auth_v2' | 'auth',
  outcome: { readonly ok: true; readonly account: Address; readonly signer?: Address } | WsAuthRefusal,
  claimed: { readonly account?: string; readonly signer?: string } = {},
): AuthReply {
  if (outcome.ok) {
    return {
      method,
      status: 'success',
      data: { account: outcome.account, ...(outcome.signer === undefined ? {} : { signer: outcome.signer }) },
    };
  }
  const data = {
    ...(claimed.account === undefined ? {} : { account: claimed.account }),
    ...(claimed.signer === undefined ? {} : { signer: claimed.signer }),
  };
  return {
    method,
    status: 'error',
    code: outcome.code,
    message: outcome.message,
    ...(Object.keys(data).length === 0 ? {} : { data }),
  };
}
