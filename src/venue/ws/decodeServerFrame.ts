import {
  controlFrameSchema,
  channelFrameSchemas,
  type ChannelMessage,
  type ControlFrame,
} from '../schemas/wsFrames.js';
import { CHANNELS, type ChannelName } from '../schemas/wsFramesFields.js';
import { fastDecodeOracle } from './fastDecodeOracle.js';
import { fastDecodeOrderbook } from './fastDecodeOrderbook.js';

export type DecodedServerFrame =
  | { readonly kind: 'channel'; readonly message: ChannelMessage }
  | { readonly kind: 'control'; readonly frame: ControlFrame }
  | { readonly kind: 'malformed'; readonly reason: string };

const DATA_TYPES = new Set<unknown>(['snapshot', 'update']);

/**
 * Classifies and decodes one text frame. Channel data (a `channel` and a snapshot/update `type`)
 * goes through the fast decoders on the hot channels and zod elsewhere; anything else must be a
 * control frame. Never throws: a frame that fits nothing is reported as malformed.
 */
export function decodeServerFrame(text: string): DecodedServerFrame {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: 'malformed', reason: 'not JSON' };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { kind: 'malformed', reason: 'not a JSON object' };
  const { channel, type } = raw as Record<string, unknown>;
  if (typeof channel === 'string' && DATA_TYPES.has(type)) return decodeChannelFrame(channel, raw);
  const control = controlFrameSchema.safeParse(raw);
  if (control.success) return { kind: 'control', frame: control.data };
  return {
    kind: 'malformed',
    reason: `unrecognised frame: ${control.error.issues[0]?.message ?? 'no matching shape'}`,
  };
}

function decodeChannelFrame(channel: string, raw: unknown): DecodedServerFrame {
  if (channel === 'oracle') {
    const message = fastDecodeOracle(raw);
    return message === undefined ? { kind: 'malformed', reason: 'invalid oracle frame' } : { kind: 'channel', message };
  }
  if (channel === 'orderbook') {
    const message = fastDecodeOrderbook(raw);
    return message === undefined
      ? { kind: 'malformed', reason: 'invalid orderbook frame' }
      : { kind: 'channel', message };
  }
  if (!(CHANNELS as readonly string[]).includes(channel))
    return { kind: 'malformed', reason: `unknown channel ${channel}` };
  const parsed = channelFrameSchemas[channel as ChannelName].safeParse(raw);
  if (parsed.success) return { kind: 'channel', message: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    kind: 'malformed',
    reason: `invalid ${channel} frame at ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`,
  };
}
