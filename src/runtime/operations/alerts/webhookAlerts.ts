import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import { exponentialBackoff, withRetry } from '../../../core/withRetry.js';
import { redactText, redactValue } from '../../../core/redactor.js';
import { fetchWithDeadline } from '../../../core/fetchWithDeadline.js';
import type { AlertEvent } from '../../config/alertEvents.js';

export interface Alert {
  readonly event: AlertEvent;
  /** One line a person reads in a chat tool. */
  readonly text: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export type AlertResult = 'sent' | 'failed' | 'dropped';

export interface WebhookAlertsOptions {
  /** The webhook (a credential: never logged). */
  readonly url: string;
  readonly events: ReadonlySet<AlertEvent>;
  /** Names the bot in every text: e.g. the account's short address. */
  readonly bot: string;
  readonly clock: Clock;
  readonly log: Pick<Logger, 'info' | 'warn'>;
  /** Per post. */
  readonly timeoutMs: number;
  /** Per alert, the first included. */
  readonly attempts: number;
  readonly backoff?: { readonly baseMs: number; readonly maxMs: number };
  /** Alerts waiting beyond this are dropped, oldest first (a receiver down for hours must not grow memory). */
  readonly maxQueued?: number;
  readonly onResult?: (event: AlertEvent, result: AlertResult) => void;
  readonly fetch?: typeof fetch;
}

/** A refusal that will not change on a retry (bad URL path, auth); 429 and 5xx are worth another go. */
class PermanentRefusal extends Error {}

/**
 * Posts alerts to a webhook as JSON with a `text` field (what Slack, Mattermost, Discord's /slack
 * endpoint and most chat tools show). `send` only queues: posting runs in the background, one
 * alert at a time in order, each retried with exponential backoff (through withRetry) on network
 * errors, timeouts, 429 and 5xx, so a slow or dead receiver never holds up trading. Every payload
 * passes through the one redactor (core/redactor.ts) first.
 */
export class WebhookAlerts {
  private readonly queue: Alert[] = [];
  private readonly lifetime = new AbortController();
  private pumping: Promise<void> | undefined;

  constructor(private readonly options: WebhookAlertsOptions) {}

  wants(event: AlertEvent): boolean {
    return this.options.events.has(event);
  }

  send(alert: Alert): void {
    if (!this.wants(alert.event) || this.lifetime.signal.aborted) return;
    this.queue.push(alert);
    const max = this.options.maxQueued ?? 100;
    while (this.queue.length > max) {
      const dropped = this.queue.shift() as Alert;
      this.options.onResult?.(dropped.event, 'dropped');
    }
    this.pumping ??= this.pump().finally(() => (this.pumping = undefined));
  }

  /** Waits up to `timeoutMs` for the queue to empty (shutdown), then gives up on what is left. */
  async close(timeoutMs: number): Promise<void> {
    if (this.pumping !== undefined) {
      const wait = new AbortController();
      await Promise.race([this.pumping, this.options.clock.sleep(timeoutMs, wait.signal).catch(() => undefined)]);
      wait.abort();
    }
    this.lifetime.abort();
    for (const left of this.queue.splice(0)) this.options.onResult?.(left.event, 'dropped');
  }

  private async pump(): Promise<void> {
    for (let alert = this.queue.shift(); alert !== undefined; alert = this.queue.shift()) {
      const result = await this.deliver(alert);
      this.options.onResult?.(alert.event, result);
    }
  }

  private async deliver(alert: Alert): Promise<AlertResult> {
    const { clock, log } = this.options;
    const body = redactText(
      JSON.stringify({
        text: `[perpbot ${this.options.bot}] ${alert.text}`,
        event: alert.event,
        at: new Date(clock.now()).toISOString(),
        bot: this.options.bot,
        ...(alert.details === undefined ? {} : { details: redactValue(alert.details) }),
      }),
    );
    const backoff = this.options.backoff ?? { baseMs: 1_000, maxMs: 30_000 };
    try {
      await withRetry(() => this.post(body), {
        attempts: this.options.attempts,
        delayMs: exponentialBackoff(backoff),
        shouldRetry: (error) => !(error instanceof PermanentRefusal),
        clock,
        signal: this.lifetime.signal,
        onRetry: ({ attempt, error, delayMs }) =>
          log.warn({ event: alert.event, attempt, delayMs, reason: describe(error) }, 'alert webhook failed; retrying'),
      });
      return 'sent';
    } catch (error) {
      if (!this.lifetime.signal.aborted)
        log.warn(
          { event: alert.event, attempts: this.options.attempts, reason: describe(error) },
          'alert webhook failed; alert dropped',
        );
      return 'failed';
    }
  }

  private async post(body: string): Promise<void> {
    // A deadline that survives garbage collection (fetchWithDeadline.ts says why it matters): one
    // stalled receiver must not end alerting for the rest of the run.
    const response = await fetchWithDeadline(
      this.options.url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        // A redirect would re-send the alert (and what it says about the account) wherever it points.
        redirect: 'manual',
      },
      {
        timeoutMs: this.options.timeoutMs,
        lifetime: this.lifetime.signal,
        // The receiver's answer is not ours to keep: read (so the connection can be reused) and dropped.
        maxBodyBytes: 1024 * 1024,
        fetch: this.options.fetch,
      },
    );
    if (response.status >= 200 && response.status < 300) return;
    if (response.status >= 300 && response.status < 400)
      throw new PermanentRefusal(
        `the webhook answered a redirect (HTTP ${response.status}), which is not followed: set the final URL`,
      );
    if (response.status === 429 || response.status >= 500)
      throw new Error(`the webhook answered HTTP ${response.status}`);
    throw new PermanentRefusal(`the webhook refused the alert with HTTP ${response.status}`);
  }
}

/** What went wrong, without the URL (it carries the webhook's credential). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  const code = cause instanceof Error && 'code' in cause ? String(cause.code) : undefined;
  if (error.name === 'TimeoutError') return 'timed out';
  if (code !== undefined) return `${error.message} (${code})`;
  return error.message;
}
