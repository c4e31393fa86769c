import type { Clock } from '../core/clock.js';
import type { StrategyStorage } from '../strategy/strategyContext.js';
import type { Journal } from './journal.js';
import { JournalError } from './journalError.js';

/** Strategy state is for cursors and counters, not data sets: a value is at most this many bytes. */
export const MAX_STRATEGY_STATE_BYTES = 64 * 1024;

/**
 * One strategy's key-value state in the journal. Values are JSON; `load` runs the strategy's own
 * schema over what was saved, so a state written by an older version of a strategy is refused
 * with the schema's complaint rather than handed over mistyped.
 */
export function journalStrategyStorage(
  journal: Journal,
  account: string,
  strategy: string,
  clock: Clock,
): StrategyStorage {
  return {
    load(key, schema) {
      const text = journal.loadStrategyState(account, strategy, key);
      if (text === undefined) return undefined;
      const parsed = schema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
      throw new JournalError(`saved state "${key}" of strategy ${strategy} does not match its schema`, {
        code: 'STRATEGY_STATE_INVALID',
        details: {
          strategy,
          key,
          issues: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`),
        },
        hints: ['migrate the old shape in the strategy, or delete the key (storage.delete) to start afresh'],
      });
    },
    save(key, value) {
      const text = JSON.stringify(value);
      if (text === undefined)
        throw new JournalError(`state "${key}" of strategy ${strategy} is not JSON`, {
          code: 'STRATEGY_STATE_INVALID',
          details: { strategy, key },
          hints: ['save plain objects, arrays, strings, numbers and booleans'],
        });
      if (Buffer.byteLength(text) > MAX_STRATEGY_STATE_BYTES) {
        throw new JournalError(
          `state "${key}" of strategy ${strategy} is ${Buffer.byteLength(text)} bytes, above ${MAX_STRATEGY_STATE_BYTES}`,
          {
            code: 'STRATEGY_STATE_TOO_LARGE',
            details: { strategy, key, bytes: Buffer.byteLength(text) },
            hints: ['keep small cursors and counters in strategy state'],
          },
        );
      }
      journal.saveStrategyState(account, strategy, key, text, clock.now());
    },
    delete(key) {
      journal.deleteStrategyState(account, strategy, key);
    },
  };
}
