import { z } from 'zod';

/**
 * Control replies from the server: subscribe/unsubscribe acknowledgements, auth replies and
 * errors. Channel data frames live in `wsFramesTrades.ts`, `wsFramesOrderbook.ts`, `wsFramesOracle.ts`,
 * `wsFramesFunding.ts` (public) and `wsFramesPrivate.ts`, gathered in `wsFrames.ts`.
 */

const addressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

/**
 * The subscribe acknowledgement (venue-wire.md §3, subscribe ack): `data.market_ids` echoes the
 * filter actually applied; empty means all markets. A refusal is the same frame with `status:
 * "error"` and a `message` ("invalid channel: <name>", "authentication required for <name>
 * channel"), which the client handles exactly as an error frame. `method`, `message` and
 * `data` (and `channel`, which a refusal's message also names) are optional on input.
 */
export const subscribedAckSchema = z.object({
  type: z.literal('subscribed'),
  method: z.literal('subscribe').optional(),
  status: z.enum(['success', 'error']),
  message: z.string().optional(),
  channel: z.string().optional(),
  data: z.object({ market_ids: z.array(z.number().int().min(0)).nullable().optional() }).optional(),
});
export type SubscribedAck = z.infer<typeof subscribedAckSchema>;

/** Not shown in the spec; chosen to mirror the subscribe acknowledgement. */
export const unsubscribedAckSchema = z.object({
  type: z.literal('unsubscribed'),
  method: z.literal('unsubscribe'),
  status: z.literal('success'),
  message: z.string().optional(),
  channel: z.string(),
});
export type UnsubscribedAck = z.infer<typeof unsubscribedAckSchema>;

export const authReplySchema = z.object({
  method: z.enum(['auth_v2', 'auth']),
  status: z.enum(['success', 'error']),
  /** gRPC status name of a refusal (the simulator sends it; not shown for the venue). */
  code: z.string().optional(),
  message: z.string().optional(),
  data: z.object({ account: addressSchema, signer: addressSchema }).partial().optional(),
});
export type AuthReply = z.infer<typeof authReplySchema>;

/**
 * The answer to an application heartbeat: `{"op":"pong"}` (the simulator's answer to risex-ts's
 * `{"op":"ping"}`) or `{"method":"pong"}` (which FB skips on the live venue; venue-wire.md §3).
 * Read and ignored.
 */
export const appPongSchema = z.union([z.object({ op: z.literal('pong') }), z.object({ method: z.literal('pong') })]);
export type AppPong = z.infer<typeof appPongSchema>;

/**
 * Error envelope (not shown in the spec; chosen): `{type: "error", status: "error", code?, message,
 * method?, channel?}`. The messages seen on the venue are `invalid channel: <name>` and
 * `authentication required for <name> channel`; `channel` is filled when the server knows it,
 * otherwise the client reads the name out of those two messages (with or without a leading
 * `<Status>: `). `code` is a gRPC status name (the simulator sends it; not shown for the venue).
 */
export const errorFrameSchema = z.object({
  type: z.literal('error'),
  status: z.literal('error').optional(),
  code: z.string().optional(),
  message: z.string(),
  method: z.string().optional(),
  channel: z.string().optional(),
});
export type ErrorFrame = z.infer<typeof errorFrameSchema>;

export function invalidChannelMessage(name: string): string {
  return `invalid channel: ${name}`;
}

export function authRequiredMessage(name: string): string {
  return `authentication required for ${name} channel`;
}

/**
 * The channel a refusal (an error frame or a refusing subscribe ack) is about: its `channel`
 * field, or the name inside a known message.
 */
export function errorFrameChannel(frame: {
  readonly channel?: string | undefined;
  readonly message?: string | undefined;
}): string | undefined {
  if (frame.channel !== undefined) return frame.channel;
  if (frame.message === undefined) return undefined;
  const invalid = /^(?:[A-Za-z]+: )?invalid channel: (\S+)/.exec(frame.message);
  if (invalid?.[1] !== undefined) return invalid[1];
  const auth = /^(?:[A-Za-z]+: )?authentication required for (\S+) channel/.exec(frame.message);
  return auth?.[1];
}
