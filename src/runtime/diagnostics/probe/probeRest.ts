import { BodyTooLargeError, fetchWithDeadline, type DeadlineAnswer } from '../../../core/fetchWithDeadline.js';
import { failureFromZod, type WireDecodeFailure } from '../../../venue/wireDecodeFailure.js';
import { departureDetail, type ProbeRow } from './probeRow.js';
import type { RestRead } from './restProbes.js';

/** Keeps a redacted copy of a refused body; the path, or undefined when it could not. */
export type SaveSample = (failure: WireDecodeFailure, raw: unknown) => Promise<string | undefined>;

export interface ProbeRestOptions {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly saveSample: SaveSample;
  readonly signal?: AbortSignal;
  readonly fetch?: typeof fetch;
}

/** Far above any body the venue sends (its largest, a full market list or order page, is kilobytes). */
export const PROBE_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Redirects followed within the venue's own origin; one to another host is never followed. */
const MAX_REDIRECTS = 3;

/**
 * Each read once, its body decoded with the schema the bot's REST client uses. Plain HTTP
 * rather than the client: the probe needs the raw body of a departure (the client throws it
 * away), and no retries, so that what is printed is what the venue answered. Each read has the
 * request deadline (one that survives garbage collection: fetchWithDeadline.ts), a body of at most
 * PROBE_MAX_BODY_BYTES, and follows a redirect only within the venue's origin.
 */
export async function probeRest(reads: readonly RestRead[], options: ProbeRestOptions): Promise<ProbeRow[]> {
  const rows: ProbeRow[] = [];
  for (const read of reads) rows.push(await probeRead(read, options));
  return rows;
}

async function probeRead(read: RestRead, options: ProbeRestOptions): Promise<ProbeRow> {
  const row = { kind: 'rest' as const, name: read.name };
  let status: number;
  let text: string;
  try {
    const answer = await getWithinOrigin(new URL(read.path, options.baseUrl), options);
    status = answer.status;
    text = answer.text();
  } catch (error) {
    return { ...row, status: 'failed', detail: `no answer: ${describeFailure(error)}` };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return departedRow(
      row,
      {
        source: read.source,
        field: '(frame)',
        expected: 'a JSON body',
        received: `HTTP ${status}, ${text.length} bytes not JSON`,
      },
      text,
      options,
    );
  }
  if (status < 200 || status > 299) return { ...row, status: 'failed', detail: `HTTP ${status}: ${errorText(body)}` };
  const parsed = read.schema.safeParse(body);
  if (parsed.success) return { ...row, status: 'ok', detail: `HTTP ${status}, decoded` };
  return departedRow(row, failureFromZod(read.source, parsed.error, body), body, options);
}

/** A GET that follows same-origin redirects (a few) and refuses one to another host. */
async function getWithinOrigin(url: URL, options: ProbeRestOptions): Promise<DeadlineAnswer> {
  let target = url;
  for (let hop = 0; ; hop++) {
    const answer = await fetchWithDeadline(
      target.toString(),
      { headers: { accept: 'application/json' }, redirect: 'manual' },
      {
        timeoutMs: options.timeoutMs,
        lifetime: options.signal,
        maxBodyBytes: PROBE_MAX_BODY_BYTES,
        fetch: options.fetch,
      },
    );
    const location = answer.headers.get('location');
    if (answer.status < 300 || answer.status > 399 || location === null) return answer;
    const next = new URL(location, target);
    if (next.origin !== url.origin)
      throw new Error(
        `HTTP ${answer.status} redirects to another host (${next.origin}), which the probe does not follow`,
      );
    if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    target = next;
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof BodyTooLargeError) return error.message;
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${error.name === 'TimeoutError' ? '' : cause}`;
}

async function departedRow(
  row: { kind: 'rest'; name: string },
  failure: WireDecodeFailure,
  raw: unknown,
  options: ProbeRestOptions,
): Promise<ProbeRow> {
  const sample = await options.saveSample(failure, raw);
  return {
    ...row,
    status: 'departed',
    detail: departureDetail(failure),
    failure,
    ...(sample === undefined ? {} : { sample }),
  };
}

/** The venue's own words from an error body (`{error: {code, message}}` or `{message}`), short. */
function errorText(body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>;
    const error = record['error'];
    if (typeof error === 'object' && error !== null) {
      const { code, message } = error as Record<string, unknown>;
      return `${typeof code === 'string' || typeof code === 'number' ? `${code}: ` : ''}${typeof message === 'string' ? message : ''}`.slice(
        0,
        200,
      );
    }
    if (typeof record['message'] === 'string') return record['message'].slice(0, 200);
  }
  return 'no error message';
}
