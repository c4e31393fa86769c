import type { z } from 'zod';
import type { HostLogger } from '../strategy/strategyHost.js';
import type { StrategyStorage } from '../strategy/strategyContext.js';

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

/** Storage in a map, with the journal's round trip through JSON and the schema check on load. */
export function memoryStorage(map: Map<string, unknown>): StrategyStorage {
  return {
    load<T>(key: string, schema: z.ZodType<T>): T | undefined {
      if (!map.has(key)) return undefined;
      const result = schema.safeParse(map.get(key));
      return result.success ? result.data : undefined;
    },
    save(key, value) {
      map.set(key, JSON.parse(JSON.stringify(value)) as unknown);
    },
    delete(key) {
      map.delete(key);
    },
  };
}
