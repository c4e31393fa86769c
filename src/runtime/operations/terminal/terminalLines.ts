/**
 * pino's JSON lines as a person at a terminal reads them: one line per event, the time, the
 * level, the strategy (or component), the message, then the other fields as key=value (nested
 * objects flattened with dots, the one named like the message without its prefix, errors as their
 * message, long hex ids shortened). Lines arrive already redacted (the logger's last pass runs
 * before the stream), so this only formats; the JSON lines keep everything.
 */
export interface TerminalLineOptions {
  readonly colorize: boolean;
}

const LEVELS: Readonly<Record<number, { readonly name: string; readonly color: string }>> = {
  10: { name: 'TRACE', color: '90' },
  20: { name: 'DEBUG', color: '36' },
  30: { name: 'INFO ', color: '32' },
  40: { name: 'WARN ', color: '33' },
  50: { name: 'ERROR', color: '31' },
  60: { name: 'FATAL', color: '35' },
};
const SKIPPED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'strategy', 'component']);
const MAX_VALUE = 120;

export function formatTerminalLine(json: string, options: TerminalLineOptions): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const paint = (code: string, text: string): string => (options.colorize ? `\u001b[${code}m${text}\u001b[0m` : text);
  const time =
    typeof record['time'] === 'number' ? new Date(record['time']).toISOString().slice(11, 23) : '--:--:--.---';
  const level = LEVELS[Number(record['level'])] ?? { name: String(record['level']).padEnd(5), color: '0' };
  const msg = textOf(record['msg']);
  // A fill or a position names its strategy inside the object the line is about.
  const subject = record[msg];
  const inner =
    subject !== null && typeof subject === 'object' ? (subject as Record<string, unknown>)['strategy'] : undefined;
  const who = whoOf(record, inner);
  const fields = fieldsOf(record, msg, typeof inner === 'string');
  const parts = [
    paint('90', time),
    paint(level.color, level.name),
    ...(who === undefined ? [] : [paint('36', `[${who}]`)]),
    msg,
  ];
  return `${parts.join(' ')}${fields.length === 0 ? '' : `  ${paint('90', fields.join(' '))}`}\n`;
}

/** A JSON value as text: a string as it is, nothing as empty, anything else as its JSON. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

/** Whose line it is: the strategy, else the strategy inside the line's subject, else the component. */
function whoOf(record: Record<string, unknown>, inner: unknown): string | undefined {
  if (typeof record['strategy'] === 'string') return record['strategy'];
  if (typeof inner === 'string') return inner;
  return typeof record['component'] === 'string' ? record['component'] : undefined;
}

/** The other fields as key=value; the subject's own fields without its prefix (its strategy is shown already). */
function fieldsOf(record: Record<string, unknown>, msg: string, innerShown: boolean): string[] {
  const fields: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (SKIPPED.has(key)) continue;
    if (key === msg && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [name, item] of Object.entries(value as Record<string, unknown>))
        if (name !== 'strategy' || !innerShown) flatten(name, item, fields, 1);
    } else flatten(key, value, fields, 0);
  }
  return fields;
}

/** A pino destination writing formatted lines to `destination`, synchronously. */
export function terminalStream(
  destination: { write(text: string): unknown },
  options: TerminalLineOptions,
): { write(line: string): void } {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line !== '') destination.write(formatTerminalLine(line, options));
    },
  };
}

function flatten(key: string, value: unknown, out: string[], depth: number): void {
  if (value === undefined) return;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    // An error (serialised by the logger): its message says it; the stack stays in the JSON logs.
    if (
      typeof record['message'] === 'string' &&
      (typeof record['type'] === 'string' || typeof record['stack'] === 'string')
    ) {
      out.push(`${key}=${show(record['message'])}`);
      return;
    }
    if (depth < 2) {
      for (const [inner, item] of Object.entries(record)) flatten(`${key}.${inner}`, item, out, depth + 1);
      return;
    }
  }
  out.push(`${key}=${show(value)}`);
}

function show(value: unknown): string {
  // Order ids and hashes: enough to tell them apart on screen.
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{24,}$/.test(value))
    return `${value.slice(0, 10)}…${value.slice(-6)}`;
  const text =
    typeof value === 'string' ? (/^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)) : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}
