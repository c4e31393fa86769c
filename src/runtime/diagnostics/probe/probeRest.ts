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

/**
 * Each read once, its body decoded with the schema the bot's REST client uses. Plain HTTP
 * rather than the client: the probe needs the raw body of a departure (the client throws it
 * away), and no retries, so that what is printed is what the venue answered.
 */
export async function probeRest(reads: readonly RestRead[], options: ProbeRestOptions): Promise<ProbeRow[]> {
  const rows: ProbeRow[] = [];
  for (const read of reads) rows.push(await probeRead(read, options));
  return rows;
}

async function probeRead(read: RestRead, options: ProbeRestOptions): Promise<ProbeRow> {
  const row = { kind: 'rest' as const, name: read.name };
  const url = new URL(read.path, options.baseUrl).toString();
  let status: number;
  let text: string;
  try {
    const signal = AbortSignal.any([
      AbortSignal.timeout(options.timeoutMs),
      ...(options.signal ? [options.signal] : []),
    ]);
    const response = await (options.fetch ?? fetch)(url, { headers: { accept: 'application/json' }, signal });
    status = response.status;
    text = await response.text();
  } catch (error) {
    return { ...row, status: 'failed', detail: `no answer: ${error instanceof Error ? error.message : String(error)}` };
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
