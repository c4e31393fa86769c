import type { HostLogger } from '../strategy/strategyHost.js';

export interface KitLogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly bindings: Readonly<Record<string, unknown>>;
  readonly obj: object;
  readonly msg?: string;
}

/** A logger that records every line (and prints it when asked). */
export function recordingLogger(
  lines: KitLogLine[],
  print: boolean,
  bindings: Record<string, unknown> = {},
): HostLogger {
  const at = (level: KitLogLine['level']) => (obj: object, msg?: string) => {
    lines.push({ level, bindings, obj, ...(msg === undefined ? {} : { msg }) });
    if (print)
      console.log(
        level,
        msg ?? '',
        JSON.stringify({ ...bindings, ...obj }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
      );
  };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (b) => recordingLogger(lines, print, { ...bindings, ...b }),
  };
}

// The kit's storage is the runtime's in-process one (a replay's strategies keep state in it too).
export { memoryStorage } from '../inProcess/memoryStorage.js';
