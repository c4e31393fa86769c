import type { RestRecord } from '../../recording/recordingRecords.js';

interface Waiter {
  readonly path: string;
  readonly body: string | undefined;
  readonly resolve: (response: Response) => void;
  readonly reject: (error: Error) => void;
}

/**
 * The venue's REST API as a flight recording replays it: a `fetch` whose requests wait until the
 * replay reaches a recorded exchange of the same method and path (`release`), and are answered
 * with its status and body, so answers arrive in the recorded order among the frames. Of the
 * requests waiting, the one asking the same (path, query and body but for its permit and client
 * order id: two placements sent together are told apart by their orders) is answered first;
 * failing that, one with the same path and query; failing that, one with the same path. Recorded
 * exchanges nobody asked for (the recorded bot's journal and service reads) are counted and passed.
 */
export class RecordedRest {
  /** Recorded exchanges no replayed request was waiting for. */
  unasked = 0;
  private readonly waiters = new Map<string, Waiter[]>();
  private finished = false;

  readonly fetch: typeof fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = init?.method ?? 'GET';
    return new Promise<Response>((resolve, reject) => {
      if (this.finished) {
        reject(new TypeError('fetch failed (the recording has ended)'));
        return;
      }
      const body = typeof init?.body === 'string' ? whatItAsks(init.body) : undefined;
      const waiter: Waiter = { path: `${url.pathname}${url.search}`, body, resolve, reject };
      const key = keyOf(method, url.pathname);
      const list = this.waiters.get(key) ?? [];
      list.push(waiter);
      this.waiters.set(key, list);
      init?.signal?.addEventListener(
        'abort',
        () => {
          this.remove(key, waiter);
          reject(init.signal?.reason instanceof Error ? init.signal.reason : new Error('aborted'));
        },
        { once: true },
      );
    });
  };

  /** The replay reached a recorded exchange: the request waiting for it gets its answer. */
  release(record: RestRecord): void {
    const pathname = record.path.split('?')[0] ?? record.path;
    const key = keyOf(record.method, pathname);
    const list = this.waiters.get(key);
    const body = record.body === undefined ? undefined : whatItAsks(record.body);
    const waiter =
      list?.find((w) => w.path === record.path && w.body === body) ??
      list?.find((w) => w.path === record.path) ??
      list?.[0];
    if (waiter === undefined) {
      this.unasked++;
      return;
    }
    this.remove(key, waiter);
    if (record.status === 0) waiter.reject(new TypeError(`fetch failed (recorded: ${record.failure ?? 'no answer'})`));
    else
      waiter.resolve(
        new Response(record.answer, {
          status: record.status,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        }),
      );
  }

  /** Requests still waiting when the recording ended. */
  get waiting(): number {
    let n = 0;
    for (const list of this.waiters.values()) n += list.length;
    return n;
  }

  /** The recording ended: what still waits fails as a request with no answer. */
  finish(): void {
    this.finished = true;
    for (const list of this.waiters.values())
      for (const waiter of list.splice(0)) waiter.reject(new TypeError('fetch failed (the recording ended first)'));
  }

  private remove(key: string, waiter: Waiter): void {
    const list = this.waiters.get(key);
    const index = list?.indexOf(waiter) ?? -1;
    if (index >= 0) list?.splice(index, 1);
  }
}

function keyOf(method: string, pathname: string): string {
  return `${method} ${pathname}`;
}

/** The fields of a signed body that differ between a run and its replay: the permit, its signature, client order id. */
const RUN_SPECIFIC = new Set(['permit', 'signature', 'client_order_id']);

/** A request body without what differs between a run and its replay, as comparable text. */
function whatItAsks(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), (key, value: unknown) => (RUN_SPECIFIC.has(key) ? undefined : value));
  } catch {
    return body;
  }
}
