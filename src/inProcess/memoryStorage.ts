import type { z } from 'zod';
import type { StrategyStorage } from '../strategy/strategyContext.js';

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
