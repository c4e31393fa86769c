import { fetchWithDeadline, whyNoAnswer } from '../../../core/fetchWithDeadline.js';
import { PerpbotError } from '../../../core/perpbotError.js';
import { printable } from '../../../core/printable.js';
import { z } from 'zod';
import type { KillSwitchAction } from './botControl.js';

const doneSchema = z.object({
  action: z.enum(['trip', 'reset']),
  killSwitch: z.object({ tripped: z.boolean(), reason: z.string().optional() }),
});

/** What the control server answered to a trip or reset it carried out. */
export type KillSwitchDone = z.infer<typeof doneSchema>;

export interface KillSwitchRequest {
  /** The control server's base URL (`http://127.0.0.1:PORT`). */
  readonly url: string;
  readonly token: string;
  readonly action: KillSwitchAction;
  readonly reason?: string | undefined;
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/**
 * `POST /api/kill-switch` to a running bot, as an operator's client: the answer when the bot
 * carried it out, else a KILL_SWITCH_FAILED error saying what the bot (or the network) said and
 * what to do. The token goes in the header only; no error or hint repeats it.
 */
export async function requestKillSwitch(request: KillSwitchRequest): Promise<KillSwitchDone> {
  const timeoutMs = request.timeoutMs ?? 5_000;
  let answer: { readonly status: number; readonly text: string; readonly retryAfter: string | null };
  try {
    const response = await fetchWithDeadline(
      `${request.url}/api/kill-switch`,
      {
        method: 'POST',
        redirect: 'manual',
        headers: { authorization: `Bearer ${request.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          action: request.action,
          ...(request.reason === undefined ? {} : { reason: request.reason }),
        }),
      },
      { timeoutMs, maxBodyBytes: 64 * 1024, fetch: request.fetch },
    );
    answer = { status: response.status, text: response.text(), retryAfter: response.headers.get('retry-after') };
  } catch (error) {
    throw failed(request, `the bot at ${request.url} did not answer (${whyNoAnswer(error, timeoutMs)})`, undefined, [
      'is it running, and is this its control server? `perpbot status` shows where it listens',
      ...TAKE_ORDERS_OFF,
    ]);
  }
  if (answer.status !== 200) throw refusal(request, answer);
  const done = doneSchema.safeParse(parsedOrUndefined(answer.text));
  if (done.success) return done.data;
  throw failed(
    request,
    `the answer of ${request.url} is not a perpbot control server's (HTTP 200, ${printable(answer.text.slice(0, 80))})`,
    200,
    ["is this the bot's control server? `perpbot status` shows where it listens"],
  );
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const TAKE_ORDERS_OFF = ['to take every order off the venue without the bot: perpbot cancel-all --config FILE'];

function refusal(
  request: KillSwitchRequest,
  answer: { readonly status: number; readonly text: string; readonly retryAfter: string | null },
): PerpbotError {
  const said = serverError(answer.text);
  const what = `the bot at ${request.url} refused the ${request.action} (HTTP ${answer.status}${said === undefined ? '' : `: ${said}`})`;
  switch (answer.status) {
    case 401:
      return failed(request, what, answer.status, [
        "the token is not the bot's: set PERPBOT_CONTROL_TOKEN (or control.token_env / control.token_file) as the bot has it",
      ]);
    case 403:
      return failed(request, what, answer.status, [
        'the bot started without a control token, so its kill switch cannot be reached over HTTP: stop it (SIGTERM) instead',
        ...TAKE_ORDERS_OFF,
      ]);
    case 429:
      return failed(request, what, answer.status, [
        `too many failed attempts from this address: try again in ${answer.retryAfter ?? 'a few'} s with the right token`,
      ]);
    default:
      return failed(request, what, answer.status, []);
  }
}

/** The `error` of the server's JSON answer, printable; undefined when there is none. */
function serverError(text: string): string | undefined {
  const error = (parsedOrUndefined(text) as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? printable(error.slice(0, 300)) : undefined;
}

function failed(
  request: KillSwitchRequest,
  message: string,
  httpStatus: number | undefined,
  hints: string[],
): PerpbotError {
  return new PerpbotError(message, {
    code: 'KILL_SWITCH_FAILED',
    details: { url: request.url, action: request.action, ...(httpStatus === undefined ? {} : { httpStatus }) },
    hints,
  });
}
