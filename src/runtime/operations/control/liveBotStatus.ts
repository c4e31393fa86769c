import { fetchWithDeadline, whyNoAnswer } from '../../../core/fetchWithDeadline.js';
import { controlFileFor, liveControlRecord, type ControlRecord } from './controlFile.js';
import type { BotStatus } from './botStatus.js';

export type LiveBot =
  | { readonly kind: 'running'; readonly record: ControlRecord; readonly status: BotStatus }
  /** A record beside the journal whose bot does not answer (it crashed, or is still starting). */
  | { readonly kind: 'silent'; readonly record: ControlRecord; readonly reason: string };

/**
 * The running bot that journals at `journalPath`, asked for its status over its control server.
 * Undefined when no bot recorded itself there. A record whose process is gone is ignored as
 * absent; one whose process lives but does not answer in `timeoutMs` is reported as silent.
 */
export async function liveBotStatus(
  journalPath: string,
  timeoutMs = 2_000,
  fetchImpl: typeof fetch = fetch,
): Promise<LiveBot | undefined> {
  const record = liveControlRecord(controlFileFor(journalPath));
  if (record === undefined) return undefined;
  try {
    const response = await fetchWithDeadline(
      `${record.url}/api/status`,
      { redirect: 'manual' },
      { timeoutMs, maxBodyBytes: 16 * 1024 * 1024, fetch: fetchImpl },
    );
    if (response.status !== 200)
      return { kind: 'silent', record, reason: `GET /api/status answered HTTP ${response.status}` };
    const body = JSON.parse(response.text()) as BotStatus | { phase: 'starting'; step: string };
    if (body.phase === 'starting')
      return { kind: 'silent', record, reason: `the bot is starting (${(body as { step: string }).step})` };
    return { kind: 'running', record, status: body };
  } catch (error) {
    return { kind: 'silent', record, reason: whyNoAnswer(error, timeoutMs) };
  }
}
