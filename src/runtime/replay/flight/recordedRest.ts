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
 * failing that, one with the same path and query; failing that, one with the same path. A recorded
 * exchange nobody waits for is kept: a request that asks the same later (the replay's engine sent
 * it after the recorded one's answer came, a refusal of the venue's among them) is answered with it
 * at once, the oldest first. Those never asked for (the recorded bot's service reads) are counted.
 */
export class RecordedRest {
  private readonly waiters = new Map<string, Waiter[]>();
  /** Released exchanges no request was waiting for, by method and path, oldest first. */
  private readonly kept = new Map<string, RestRecord[]>();
  private finished = false;

  /** Recorded exchanges no replayed request has asked for (so far). */
  get unasked(): number {
    let n = 0;
    for (const list of this.kept.values()) n += list.length;
    return n;
  }

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
      const early = this.takeKept(key, waiter);
      if (early !== undefined) {
        answer(waiter, early);
        return;
      }
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
      const kept = this.kept.get(key) ?? [];
      kept.push(record);
      this.kept.set(key, kept);
      return;
    }
    this.remove(key, waiter);
    answer(waiter, record);
  }

  /** A kept exchange asking what `waiter` asks (the same body, else the same path and query), taken. */
  private takeKept(key: string, waiter: Waiter): RestRecord | undefined {
    const kept = this.kept.get(key);
    if (kept === undefined) return undefined;
    const matches = (r: RestRecord) => r.path === waiter.path;
    const at = kept.findIndex(
      (r) => matches(r) && (r.body === undefined ? undefined : whatItAsks(r.body)) === waiter.body,
    );
    const index = at >= 0 ? at : waiter.body === undefined ? kept.findIndex(matches) : -1;
    if (index < 0) return undefined;
    return kept.splice(index, 1)[0];
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

function answer(waiter: Waiter, record: RestRecord): void {
  if (record.status === 0) waiter.reject(new TypeError(`fetch failed (recorded: ${record.failure ?? 'no answer'})`));
  else
    waiter.resolve(
      new Response(record.answer, {
        status: record.status,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      }),
    );
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
