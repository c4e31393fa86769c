/**
 * One HTTP exchange with a deadline and a lifetime, its body read within both: what every
 * outgoing request of the runtime (alerts, probe, a running bot's status) goes through.
 *
 * Why not `AbortSignal.any([lifetime, AbortSignal.timeout(ms)])`: on Node 20 the combined signal
 * holds its sources weakly, and a timeout signal nothing else references is collected with its
 * timer, so after a garbage collection the deadline never fires and a stalled peer holds the
 * request (and whatever waits on it) for good. Here the deadline is a plain timer, held by the
 * event loop until the exchange ends, aborting a controller of this exchange alone (the lifetime,
 * a long-lived signal, gets one listener, removed at the end).
 */

/** A deadline passed: `name` is `TimeoutError`, as fetch's own would be. */
export class DeadlineError extends Error {
  constructor(
    readonly timeoutMs: number,
    options?: ErrorOptions,
  ) {
    super(`no complete answer within ${timeoutMs} ms`, options);
    this.name = 'TimeoutError';
  }
}

/** The body was longer than the caller reads; the connection was cut there. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the body is larger than ${maxBytes} bytes; not read further`);
    this.name = 'BodyTooLargeError';
  }
}

export interface DeadlineFetchOptions {
  /** The whole exchange, body included. */
  readonly timeoutMs: number;
  /** Ends the exchange when it aborts (a shutdown). */
  readonly lifetime?: AbortSignal | undefined;
  /** The most of a body read (default 16 MiB); past it the exchange fails with BodyTooLargeError. */
  readonly maxBodyBytes?: number;
  readonly fetch?: typeof fetch | undefined;
}

/**
 * Why an exchange got no answer, for a person: the deadline (`timeoutMs`), or fetch's words with
 * the network's own code (ECONNREFUSED) or words beside them.
 */
export function whyNoAnswer(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = typeof cause?.code === 'string' ? cause.code : cause?.message;
  return typeof detail === 'string' ? `${error.message}: ${detail}` : error.message;
}

export interface DeadlineAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
  /** The body as UTF-8. */
  text(): string;
}

const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function fetchWithDeadline(
  url: string,
  init: Omit<RequestInit, 'signal'>,
  options: DeadlineFetchOptions,
): Promise<DeadlineAnswer> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DeadlineError(options.timeoutMs));
  }, options.timeoutMs);
  const lifetime = options.lifetime;
  const onLifetimeEnd = (): void => controller.abort(lifetime?.reason);
  if (lifetime?.aborted === true) onLifetimeEnd();
  else lifetime?.addEventListener('abort', onLifetimeEnd, { once: true });
  try {
    const response = await (options.fetch ?? fetch)(url, { ...init, signal: controller.signal });
    const body = await readBody(response, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    return { status: response.status, headers: response.headers, body, text: () => body.toString('utf8') };
  } catch (error) {
    if (timedOut && !(error instanceof BodyTooLargeError)) throw new DeadlineError(options.timeoutMs, { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
    lifetime?.removeEventListener('abort', onLifetimeEnd);
  }
}

/** The body up to `maxBytes`, refused early when its declared length is larger. */
async function readBody(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  if (response.body === null) return Buffer.alloc(0);
  const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    const value = next.value;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
