import WebSocket from 'ws';

/**
 * A bare WebSocket client that sends any bytes (text, binary, invalid UTF-8) and reads replies one
 * at a time, each with a deadline, so a server that stays silent fails the test instead of
 * hanging it.
 */
export class WsPeer {
  private readonly inbox: unknown[] = [];
  private waiter: { resolve: (frame: unknown) => void; reject: (error: Error) => void } | undefined;
  private closeCode: number | undefined;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame: unknown = JSON.parse(String(data));
      if (this.waiter === undefined) this.inbox.push(frame);
      else {
        const waiter = this.waiter;
        this.waiter = undefined;
        waiter.resolve(frame);
      }
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        this.closeCode = code;
        this.waiter?.reject(
          new Error(`the server closed the connection (${code} ${String(reason)}) instead of replying`),
        );
        this.waiter = undefined;
        resolve({ code, reason: String(reason) });
      }),
    );
  }

  static async open(url: string): Promise<WsPeer> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new WsPeer(socket);
  }

  sendText(text: string | Buffer): void {
    this.socket.send(text, { binary: false });
  }

  sendBinary(bytes: Uint8Array): void {
    this.socket.send(bytes, { binary: true });
  }

  /** The next frame from the server, parsed. */
  next(timeoutMs = 2_000): Promise<Record<string, unknown>> {
    const queued = this.inbox.shift();
    if (queued !== undefined) return Promise.resolve(queued as Record<string, unknown>);
    if (this.closeCode !== undefined) return Promise.reject(new Error(`the connection is closed (${this.closeCode})`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new Error(`no frame from the server within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiter = {
        resolve: (frame) => {
          clearTimeout(timer);
          resolve(frame as Record<string, unknown>);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  /** Frames received and not read yet. */
  get unread(): number {
    return this.inbox.length;
  }

  close(): void {
    this.socket.terminate();
  }
}
