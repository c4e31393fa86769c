import WebSocket from 'ws';
import type { Clock } from '../../core/clock.js';
import { MAX_VENUE_FRAME_BYTES } from './maxFrameBytes.js';
import { OutboundFrameQueue } from './outboundFrameQueue.js';

export interface WsSessionOptions {
  readonly url: string;
  readonly clock: Clock;
  readonly maxFramesPerSecond: number;
  /** A text frame, with the session it came on (frames can arrive before `open` resolves). */
  readonly onText: (text: string, session: WsSession) => void;
  /** Opening handshake budget; a venue that accepts TCP but never upgrades must not hang us. */
  readonly openTimeoutMs?: number;
  /** A frame larger than MAX_VENUE_FRAME_BYTES was refused (the session then ends). */
  readonly onOversizedFrame?: () => void;
}

/** Why a session ended when the venue sent a frame larger than we read. */
export const OVERSIZED_FRAME_REASON = `the venue sent a frame larger than ${MAX_VENUE_FRAME_BYTES} bytes: refused unread, the connection is replaced`;

/**
 * One WebSocket connection: opens, hands text frames to `onText`, sends through the rate-limited
 * queue, and resolves `ended` with a reason once, however it ends (server close, socket error,
 * or `end()` from the client for staleness or shutdown).
 */
export class WsSession {
  readonly ended: Promise<string>;
  private resolveEnded!: (reason: string) => void;
  private isOpen = true;
  private readonly queue: OutboundFrameQueue;

  private constructor(
    private readonly socket: WebSocket,
    options: WsSessionOptions,
  ) {
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    this.queue = new OutboundFrameQueue((text) => this.socket.send(text), {
      clock: options.clock,
      maxFrames: options.maxFramesPerSecond,
    });
    socket.on('message', (data, isBinary) => {
      if (!isBinary)
        options.onText(
          Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8'),
          this,
        );
    });
    socket.on('close', (code, reason) =>
      this.end(`closed by server (code ${code}${reason.length > 0 ? `: ${reason.toString()}` : ''})`),
    );
    socket.on('error', (error) => {
      if ((error as Error & { code?: string }).code !== 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')
        return this.end(`socket error: ${error.message}`);
      options.onOversizedFrame?.();
      this.end(OVERSIZED_FRAME_REASON);
    });
  }

  static open(options: WsSessionOptions): Promise<WsSession> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(options.url, {
        handshakeTimeout: options.openTimeoutMs ?? 10_000,
        maxPayload: MAX_VENUE_FRAME_BYTES,
      });
      const detach = (): void => {
        socket.off('open', onOpen);
        socket.off('error', onError);
        socket.off('close', onClose);
      };
      const fail = (error: Error): void => {
        detach();
        // A late error from the dying socket must not become an unhandled 'error' event.
        socket.on('error', () => undefined);
        socket.terminate();
        reject(error);
      };
      const onOpen = (): void => {
        detach();
        resolve(new WsSession(socket, options));
      };
      const onError = (error: Error): void => fail(error);
      const onClose = (code: number): void => fail(new Error(`closed during the opening handshake (code ${code})`));
      socket.on('open', onOpen);
      socket.on('error', onError);
      socket.on('close', onClose);
    });
  }

  get open(): boolean {
    return this.isOpen;
  }

  send(frame: object): void {
    if (this.isOpen) this.queue.push(JSON.stringify(frame));
  }

  end(reason: string): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.queue.close();
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close(1000);
      // A peer that never answers the close handshake must not keep the socket alive.
      setTimeout(() => this.socket.terminate(), 2000).unref();
    }
    this.resolveEnded(reason);
  }
}
