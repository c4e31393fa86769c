/**
 * What the bot's own log lines say happened, as the audit needs it: connection changes, trading
 * modes, kill-switch trips and finished reconciliations, each stamped with the line's time and
 * the bot run (1 = first start, 2 = after the crash, ...) that wrote it. Only the lines the audit
 * reads are kept; the whole log is on disk.
 */
export type BotEvent =
  | { readonly type: 'connection'; readonly run: number; readonly atMs: number; readonly status: string }
  | {
      readonly type: 'trading';
      readonly run: number;
      readonly atMs: number;
      readonly mode: string;
      readonly reasons: readonly string[];
    }
  | {
      readonly type: 'kill_switch';
      readonly run: number;
      readonly atMs: number;
      readonly message: string;
      readonly reason?: string;
    }
  | { readonly type: 'reconciled'; readonly run: number; readonly atMs: number }
  | { readonly type: 'ready'; readonly run: number; readonly atMs: number };

/** One start of the bot process and how it ended. */
export interface BotRun {
  readonly run: number;
  readonly startedAtMs: number;
  /** When its exit was seen; undefined while it runs. */
  readonly endedAtMs?: number;
  readonly exit?: BotExit;
}

export interface BotExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** What the chaos run asked for: the crash half-way, the final stop, or nothing (it exited by itself). */
  readonly planned?: 'crash' | 'stop';
  /** The stop did not finish in time and the process was killed. */
  readonly forced?: boolean;
}

/** Parses one stdout line of the bot (pino JSON); undefined for lines the audit does not read. */
export function botEventOf(line: string, run: number): BotEvent | undefined {
  if (!line.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const fields = parsed as Record<string, unknown>;
  const msg = fields['msg'];
  const atMs = fields['time'];
  if (typeof msg !== 'string' || typeof atMs !== 'number') return undefined;
  if (msg === 'venue connection' && typeof fields['status'] === 'string')
    return { type: 'connection', run, atMs, status: fields['status'] };
  if (msg === 'trading state' && typeof fields['mode'] === 'string') {
    const reasons = Array.isArray(fields['reasons']) ? fields['reasons'].map(String) : [];
    return { type: 'trading', run, atMs, mode: fields['mode'], reasons };
  }
  if (msg.includes('kill switch tripped')) {
    const reason = fields['reason'];
    return { type: 'kill_switch', run, atMs, message: msg, ...(typeof reason === 'string' ? { reason } : {}) };
  }
  if (msg === 'reconciliation done') return { type: 'reconciled', run, atMs };
  if (msg === 'bot running') return { type: 'ready', run, atMs };
  return undefined;
}

/**
 * Kill-switch trips, one per trip: the engine's `kill switch tripped: cancelling all orders` and a
 * strategy budget's `strategy kill switch tripped: ...`. The lines that only say why the engine
 * tripped (an outage too long, a feed lost) precede the engine's line and are not counted again.
 */
export function isTripLine(event: Extract<BotEvent, { type: 'kill_switch' }>): boolean {
  return event.message.startsWith('kill switch tripped') || event.message.startsWith('strategy kill switch tripped');
}
