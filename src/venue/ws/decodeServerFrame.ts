import { z } from 'zod';
import {
  controlFrameSchema,
  channelFrameSchemas,
  type ChannelMessage,
  type ControlFrame,
} from '../schemas/wsFrames.js';
import {
  authReplySchema,
  errorFrameSchema,
  subscribedAckSchema,
  unsubscribedAckSchema,
} from '../schemas/wsFramesControl.js';
import { CHANNELS, type ChannelName } from '../schemas/wsFramesFields.js';
import { describeReceived, failureFromZod, type WireDecodeFailure } from '../wireDecodeFailure.js';
import { fastDecodeAccount } from './fastDecodeAccount.js';
import { fastDecodeFills } from './fastDecodeFills.js';
import { fastDecodeOracle } from './fastDecodeOracle.js';
import { fastDecodeOrderbook } from './fastDecodeOrderbook.js';
import { fastDecodeOrders } from './fastDecodeOrders.js';
import { fastDecodePositions } from './fastDecodePositions.js';
import { fastDecodeTrades } from './fastDecodeTrades.js';
import { scanHotFrame } from './scanHotFrame.js';

export type DecodedServerFrame =
  | { readonly kind: 'channel'; readonly message: ChannelMessage }
  | { readonly kind: 'control'; readonly frame: ControlFrame }
  | { readonly kind: 'malformed'; readonly reason: string; readonly failure: WireDecodeFailure };

const DATA_TYPES = new Set<unknown>(['snapshot', 'update']);
const CONTROL = 'ws:control';

/**
 * Classifies and decodes one text frame. Orderbook and oracle frames in the venue's plain
 * spelling are read straight from the text (`scanHotFrame`, with the same result); every other
 * frame is parsed, and channel data (a `channel` and a snapshot/update `type`) goes through the
 * channel's fast decoder (zod where it has none); anything else must be a control frame. Never
 * throws: a frame that fits nothing is reported as malformed, with the first field that departed
 * (`failure`, for the drift monitor) and the same in words (`reason`).
 *
 * `oracleMarkets`: the markets whose oracle prices any consumer reads (the channel registry's
 * `decodedMarkets`). The scanner then converts only those markets' prices, and checks the others
 * as strictly (a malformed price anywhere still refuses the frame); the JSON.parse way decodes
 * them all. Either way each consumer, narrowed to its own markets on delivery, gets the same.
 */
export function decodeServerFrame(text: string, oracleMarkets?: ReadonlySet<number>): DecodedServerFrame {
  // The scanner answers undefined for anything it does not read exactly, refused or not: the
  // JSON.parse way then decides, as it always did.
  const hot = scanHotFrame(text, oracleMarkets);
  if (hot !== undefined) return { kind: 'channel', message: hot };
  return decodeFrameByParse(text);
}

/**
 * The JSON.parse way: `JSON.parse`, then `decodeServerValue`. Every frame the scanner does not
 * read goes this way; the tests hold the scanner to it.
 */
export function decodeFrameByParse(text: string): DecodedServerFrame {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return malformed({
      source: CONTROL,
      field: '(frame)',
      expected: 'a JSON object',
      received: 'text that is not JSON',
    });
  }
  return decodeServerValue(raw);
}

/**
 * `decodeServerFrame` of a frame already parsed, or built in process as a plain JSON value (a
 * replay's simulator hands its frames to the bot as the objects it builds: `SimChannels`).
 */
export function decodeServerValue(raw: unknown): DecodedServerFrame {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return malformed({ source: CONTROL, field: '(frame)', expected: 'a JSON object', received: describeReceived(raw) });
  const { channel, type } = raw as Record<string, unknown>;
  if (typeof channel === 'string' && DATA_TYPES.has(type)) return decodeChannelFrame(channel, raw);
  const control = controlFrameSchema.safeParse(raw);
  if (control.success) return { kind: 'control', frame: control.data };
  return malformed(controlFailure(raw as Record<string, unknown>, control.error));
}

/**
 * The hand-checked decoders: the hot public channels, and the private ones a replay sends every
 * order change, fill and position of the account through. Each equals its channel's zod schema
 * (a property test holds them so); zod runs only on a refusal, to name the field.
 */
export const FAST_DECODERS: ReadonlyMap<string, (raw: unknown) => ChannelMessage | undefined> = new Map<
  ChannelName,
  (raw: unknown) => ChannelMessage | undefined
>([
  ['oracle', fastDecodeOracle],
  ['orderbook', fastDecodeOrderbook],
  ['trades', fastDecodeTrades],
  ['orders', fastDecodeOrders],
  ['positions', fastDecodePositions],
  ['fills', fastDecodeFills],
  ['account', fastDecodeAccount],
]);

function decodeChannelFrame(channel: string, raw: unknown): DecodedServerFrame {
  const message = FAST_DECODERS.get(channel)?.(raw);
  if (message !== undefined) return { kind: 'channel', message };
  if (!(CHANNELS as readonly string[]).includes(channel)) {
    return malformed({
      source: `ws:${channel.slice(0, 40)}`,
      field: 'channel',
      expected: `one of ${CHANNELS.join(', ')}`,
      received: describeReceived(channel),
    });
  }
  // A refusal is rare, so parsing the frame a second time costs nothing that matters; were the
  // fast decoder ever to refuse a frame zod accepts, zod's message is the one used.
  const parsed = channelFrameSchemas[channel as ChannelName].safeParse(raw);
  if (parsed.success) return { kind: 'channel', message: parsed.data };
  return malformed(failureFromZod(`ws:${channel}`, deepestBranch(parsed.error), raw));
}

/**
 * A union's refusal names only the union (trades' `data` is one trade or a list): the branch
 * that got furthest names the field that departed, so its issues stand for the error.
 */
function deepestBranch(error: z.ZodError): z.ZodError {
  const issue = error.issues[0];
  if (issue?.code !== 'invalid_union' || issue.errors.length === 0) return error;
  const depth = (branch: readonly z.core.$ZodIssue[]): number => branch[0]?.path.length ?? -1;
  const best = issue.errors.reduce((a, b) => (depth(b) > depth(a) ? b : a));
  return new z.ZodError(best.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })));
}

/** The control shape the frame claims by its `type` or `method`, so the failure names a field. */
function controlFailure(raw: Record<string, unknown>, unionError: z.ZodError): WireDecodeFailure {
  const schema =
    raw['type'] === 'subscribed'
      ? subscribedAckSchema
      : raw['type'] === 'unsubscribed'
        ? unsubscribedAckSchema
        : raw['type'] === 'error'
          ? errorFrameSchema
          : raw['method'] === 'auth_v2' || raw['method'] === 'auth'
            ? authReplySchema
            : undefined;
  const parsed = schema?.safeParse(raw);
  if (parsed !== undefined && !parsed.success) return failureFromZod(CONTROL, parsed.error, raw);
  return {
    source: CONTROL,
    field: '(frame)',
    expected: `a channel frame (channel, type snapshot|update) or a control frame (${unionError.issues[0]?.message ?? 'no matching shape'})`,
    received: describeReceived(raw),
  };
}

function malformed(failure: WireDecodeFailure): DecodedServerFrame {
  const where = failure.field === '(frame)' ? '' : ` at ${failure.field}`;
  return {
    kind: 'malformed',
    reason: `${failure.source}${where}: expected ${failure.expected}, got ${failure.received}`,
    failure,
  };
}
