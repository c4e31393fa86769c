import { sameAddress } from '../../core/address.js';
import { clientFrameSchema, type AuthV2Frame, type SubscribeFrame } from '../../venue/schemas/wsFramesClient.js';
import { authRequiredMessage, invalidChannelMessage, type AppPong } from '../../venue/schemas/wsFramesControl.js';
import { channelNameSchema, isPrivateChannel } from '../../venue/schemas/wsFramesFields.js';
import {
  authRefusal,
  authReply,
  errorFrame,
  statusErrorFrame,
  subscribedAck,
  subscribeRefusal,
  unsubscribedAck,
} from './controlFrames.js';
import { valueAtPath, wireValueText } from '../wireValueText.js';
import type { SimWsConnection } from './simWsConnection.js';
import type { SimWsContext } from './simWsContext.js';
import type { SimWsHub } from './simWsHub.js';
import { verifyAuthV2, verifyJwtAuth, type WsAuthOutcome } from './verifyWsAuth.js';

/**
 * One client frame: parsed with the client's own schemas, then acted on. Every failure becomes an
 * error frame on this connection; nothing here throws into the socket handler.
 */
export function handleClientFrame(ctx: SimWsContext, hub: SimWsHub, connection: SimWsConnection, text: string): void {
  if (!connection.admitInbound()) {
    connection.send(
      statusErrorFrame(
        'ResourceExhausted',
        `rate limited: at most ${connection.inboundFramesPerSecond} frames per second per connection`,
      ),
    );
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    connection.send(statusErrorFrame('InvalidArgument', 'malformed frame: not JSON'));
    return;
  }
  if (isAppPing(json)) {
    // risex-ts sends {"op":"ping"} every 15 s; the venue's reply is unknown (venue-wire.md §3,
    // app heartbeat). Chosen: a pong in kind, never an error frame.
    connection.send({ op: 'pong' } satisfies AppPong);
    return;
  }
  const parsed = clientFrameSchema.safeParse(json);
  if (!parsed.success) {
    refuseMalformed(connection, json, parsed.error.issues[0]);
    return;
  }
  const frame = parsed.data;
  switch (frame.method) {
    case 'subscribe':
      subscribe(hub, connection, frame.params);
      return;
    case 'unsubscribe': {
      const channel = channelNameSchema.safeParse(frame.params.channel);
      if (!channel.success) {
        connection.send(
          errorFrame(invalidChannelMessage(frame.params.channel), {
            code: 'InvalidArgument',
            method: 'unsubscribe',
            channel: frame.params.channel,
          }),
        );
        return;
      }
      connection.subscriptions.delete(channel.data);
      connection.send(unsubscribedAck(channel.data));
      return;
    }
    case 'auth_v2':
      authenticate(hub, connection, 'auth_v2', verifyAuthV2(ctx, frame.params), frame.params);
      return;
    case 'auth':
      authenticate(hub, connection, 'auth', verifyJwtAuth(ctx, frame.params.token), {});
      return;
  }
}

function subscribe(hub: SimWsHub, connection: SimWsConnection, params: SubscribeFrame['params']): void {
  // Every refusal of a subscribe is an ack with status "error" (venue-wire.md §3).
  const channel = channelNameSchema.safeParse(params.channel);
  if (!channel.success) {
    connection.send(subscribeRefusal(params.channel, invalidChannelMessage(params.channel)));
    return;
  }
  const name = channel.data;
  if (isPrivateChannel(name)) {
    const account = connection.account;
    if (account === undefined) {
      connection.send(subscribeRefusal(name, authRequiredMessage(name)));
      return;
    }
    if (params.makers !== undefined && !params.makers.every((maker) => sameAddress(maker, account))) {
      connection.send(
        subscribeRefusal(name, `PermissionDenied: makers must be the authenticated account for ${name} channel`),
      );
      return;
    }
  }
  // The account channel is not per market: its filter is "all", and the ack says so.
  const filter = name === 'account' ? [] : [...new Set(params.market_ids ?? [])].sort((a, b) => a - b);
  connection.subscriptions.set(name, filter);
  // Spec: the ack lists the ids actually applied; with no filter that is every market.
  connection.send(subscribedAck(name, filter, hub.knownMarkets()));
  hub.sendSnapshot(connection, name);
}

function authenticate(
  hub: SimWsHub,
  connection: SimWsConnection,
  method: 'auth_v2' | 'auth',
  outcome: WsAuthOutcome,
  claimed: Partial<Pick<AuthV2Frame['params'], 'account' | 'signer'>>,
): void {
  // A refused frame leaves an earlier successful authentication in place: the client's retry
  // flow sends several frames in a row and a stale one must not log it out.
  if (outcome.ok) {
    hub.pin(connection, outcome.account);
    connection.signer = outcome.signer;
  }
  connection.send(authReply(method, outcome, claimed));
}

const METHODS = ['subscribe', 'unsubscribe', 'auth_v2', 'auth'] as const;

function isAppPing(json: unknown): boolean {
  return typeof json === 'object' && json !== null && !Array.isArray(json) && 'op' in json && json.op === 'ping';
}

/**
 * A frame the client schemas refuse, answered InvalidArgument. A malformed auth frame gets the
 * auth reply shape (`{method, status: "error", code, message}`), so a client waiting for its auth
 * reply sees the refusal instead of timing out; everything else gets an error frame.
 */
function refuseMalformed(
  connection: SimWsConnection,
  json: unknown,
  issue: { readonly path: readonly PropertyKey[]; readonly message: string } | undefined,
): void {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    connection.send(
      statusErrorFrame(
        'InvalidArgument',
        `malformed frame: expected a JSON object, got ${json === null ? 'null' : Array.isArray(json) ? 'an array' : typeof json}`,
      ),
    );
    return;
  }
  if (!('method' in json)) {
    connection.send(
      statusErrorFrame('InvalidArgument', `malformed frame: no method (expected one of ${METHODS.join(', ')})`),
    );
    return;
  }
  const method = json.method;
  const known = METHODS.find((name) => name === method);
  if (known === undefined) {
    // Described, not serialised: a deeply nested value would overflow JSON.stringify's stack.
    const shown = typeof method === 'string' ? method.slice(0, 40) : `${wireValueText(method)} (not a string)`;
    connection.send(
      statusErrorFrame('InvalidArgument', `unknown method: ${shown} (expected one of ${METHODS.join(', ')})`),
    );
    return;
  }
  const got =
    issue === undefined
      ? ''
      : ` (got ${wireValueText(valueAtPath(json, issue.path), String(issue.path[issue.path.length - 1] ?? ''))})`;
  const where =
    issue === undefined ? '' : ` at ${issue.path.map(String).join('.') || '(root)'}: ${issue.message}${got}`;
  const reason = `malformed ${known} frame${where}`.slice(0, 200);
  if (known === 'auth_v2' || known === 'auth')
    connection.send(authReply(known, authRefusal('InvalidArgument', reason)));
  else connection.send(statusErrorFrame('InvalidArgument', reason, { method: known }));
}
