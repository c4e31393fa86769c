import type { Address } from '../../core/address.js';
import type { AuthReply, ErrorFrame, SubscribedAck, UnsubscribedAck } from '../../venue/schemas/wsFramesControl.js';

/**
 * Control replies the server sends, typed by the client's schemas so a shape drift fails the
 * typecheck. Texts are part of the simulator's contract (docs/spec-gaps.md, "Simulator WebSocket server").
 */

/** `subscribed to orderbook for 2 market(s)` / `subscribed to oracle for all markets`. */
export function subscribedMessage(channel: string, marketIds: readonly number[]): string {
  return marketIds.length === 0
    ? `subscribed to ${channel} for all markets`
    : `subscribed to ${channel} for ${marketIds.length} market(s)`;
}

export function subscribedAck(channel: string, marketIds: readonly number[]): SubscribedAck {
  return {
    type: 'subscribed',
    method: 'subscribe',
    status: 'success',
    message: subscribedMessage(channel, marketIds),
    channel,
    data: { market_ids: [...marketIds] },
  };
}

export function unsubscribedAck(channel: string): UnsubscribedAck {
  return { type: 'unsubscribed', method: 'unsubscribe', status: 'success', message: `unsubscribed from ${channel}`, channel };
}

export function errorFrame(message: string, extra: { readonly method?: string; readonly channel?: string } = {}): ErrorFrame {
  return {
    type: 'error',
    status: 'error',
    message,
    ...(extra.method === undefined ? {} : { method: extra.method }),
    ...(extra.channel === undefined ? {} : { channel: extra.channel }),
  };
}

export function authReply(
  method: 'auth_v2' | 'auth',
  outcome: { readonly ok: true; readonly account: Address; readonly signer?: Address } | { readonly ok: false; readonly message: string },
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
  return { method, status: 'error', message: outcome.message, ...(Object.keys(data).length === 0 ? {} : { data }) };
}
