import WebSocket from 'ws';
import type { Clock } from '../../../core/clock.js';
import type { AuthReply } from '../../../venue/schemas/wsFrames.js';
import { MAX_VENUE_FRAME_BYTES } from '../../../venue/ws/maxFrameBytes.js';
import { OVERSIZED_FRAME_REASON } from '../../../venue/ws/wsSession.js';
import { AuthReplyLostError, authenticateWs, type WsAuthenticator } from '../../../venue/ws/authenticateWs.js';
import { ChannelTally } from './channelTally.js';
import { FrameJudge } from './frameJudge.js';
import type { SaveSample } from './probeRest.js';
import type { ProbeRow } from './probeRow.js';
import type { WsChannelProbe } from './wsProbes.js';

export interface ProbeWsOptions {
  readonly wsUrl: string;
  readonly channels: readonly WsChannelProbe[];
  readonly markets: readonly number[];
  /** How long to listen once subscribed. */
  readonly listenMs: number;
  readonly clock: Clock;
  readonly saveSample: SaveSample;
  /** With the session key: auth_v2, then the private channels. */
  readonly auth?: WsAuthenticator;
  /** Why there is no `auth` (printed on the skipped rows). */
  readonly noAuthReason?: string;
  readonly signal?: AbortSignal;
  /** The opening handshake's budget (the probe passes venue.request_timeout_ms); default 10 s. */
  readonly connectTimeoutMs?: number;
}

/** The opening handshake's budget when none is given (the venue's default request timeout). */
const CONNECT_TIMEOUT_MS = 10_000;
const AUTH_REPLY_WAIT_MS = 5_000;

/**
 * One WebSocket connection, as the bot makes it: every public channel subscribed, auth_v2 with
 * the session key (it signs a login message, nothing that moves money), every private channel
 * subscribed; then it listens and judges every frame. One row per channel, one for auth_v2 and
 * one for the control frames.
 */
export async function probeWs(options: ProbeWsOptions): Promise<ProbeRow[]> {
  const tallies = new Map(
    options.channels.map((c) => [c.channel, new ChannelTally(rowName(c, options.markets), true)]),
  );
  const judge = new FrameJudge(tallies);
  let socket: WebSocket;
  try {
    socket = await connect(options.wsUrl, options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
  } catch (error) {
    const detail = `no connection: ${error instanceof Error ? error.message : String(error)}`;
    return [...tallies.values()].map((t) => ({ kind: 'ws', name: t.name, status: 'failed', detail }));
  }
  try {
    socket.on('message', (data: WebSocket.RawData) => judge.judge(textOf(data)));
    let closed: string | undefined;
    socket.once('close', (code: number, reason: Buffer) => {
      closed = oversizedFrames.has(socket)
        ? OVERSIZED_FRAME_REASON
        : `the venue closed the connection (code ${code}${reason.length > 0 ? `, ${reason.toString()}` : ''})`;
    });
    const send = (frame: unknown): void => socket.send(JSON.stringify(frame));
    for (const c of options.channels) if (!c.private) send(subscribeFrame(c, options.markets));
    const authRow = await authenticate(options, judge, send);
    for (const c of options.channels.filter((p) => p.private)) {
      if (authRow.status === 'ok') send(subscribeFrame(c, options.markets));
      else
        tallies.get(c.channel)?.skip(`private channel, not subscribed: auth_v2 ${authRow.status} (${authRow.detail})`);
    }
    await options.clock.sleep(options.listenMs, options.signal).catch(() => undefined);
    const rows = [authRow];
    for (const tally of tallies.values()) rows.push(await tally.row(options.saveSample, options.listenMs));
    const control = await judge.control.row(options.saveSample, options.listenMs);
    rows.push(
      closed === undefined || control.status !== 'ok' ? control : { ...control, status: 'failed', detail: closed },
    );
    return rows;
  } finally {
    socket.close();
  }
}

async function authenticate(
  options: ProbeWsOptions,
  judge: FrameJudge,
  send: (frame: unknown) => void,
): Promise<ProbeRow> {
  const row = { kind: 'ws' as const, name: 'auth_v2' };
  if (options.auth === undefined)
    return { ...row, status: 'skipped', detail: options.noAuthReason ?? 'no session key configured' };
  try {
    const reply = await authenticateWs({
      authenticator: options.auth,
      exchange: (frame) => {
        const answer = replyWithin(judge.nextAuthReply(), options.clock, AUTH_REPLY_WAIT_MS);
        send(frame);
        return answer;
      },
      clock: options.clock,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { ...row, status: 'ok', detail: `authenticated (account ${reply.data?.account ?? options.auth.account})` };
  } catch (error) {
    return { ...row, status: 'failed', detail: error instanceof Error ? error.message : String(error) };
  }
}

function replyWithin(reply: Promise<AuthReply>, clock: Clock, ms: number): Promise<AuthReply> {
  const stop = new AbortController();
  const late = clock.sleep(ms, stop.signal).then(() => Promise.reject(new AuthReplyLostError(ms)));
  return Promise.race([reply, late]).finally(() => stop.abort());
}

/** Sockets that refused a frame past MAX_VENUE_FRAME_BYTES (said on the control row). */
const oversizedFrames = new WeakSet<WebSocket>();

function connect(url: string, timeoutMs: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { handshakeTimeout: timeoutMs, maxPayload: MAX_VENUE_FRAME_BYTES });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
    // From the start: a frame that came with the handshake's answer is read in the same turn as
    // 'open'. After the handshake an error closes the socket; the rows say what did not come.
    socket.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') oversizedFrames.add(socket);
    });
  });
}

function subscribeFrame(c: WsChannelProbe, markets: readonly number[]): unknown {
  return {
    method: 'subscribe',
    params: { channel: c.channel, ...(c.perMarket && markets.length > 0 ? { market_ids: [...markets] } : {}) },
  };
}

function rowName(c: WsChannelProbe, markets: readonly number[]): string {
  return c.perMarket && markets.length > 0 ? `${c.channel} [${markets.join(',')}]` : c.channel;
}

function textOf(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
