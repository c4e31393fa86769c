import type { Journal } from './journal.js';
import type { ResilientEngineJournal } from './resilientEngineJournal.js';

/** The journal's writes made outside the engine's hooks while the bot runs; each answers nothing. */
const KEPT_WRITES = new Set<string>([
  'recordOrder',
  'recordPosition',
  'recordBalance',
  'saveStrategyState',
  'deleteStrategyState',
  'openFillGap',
  'closeFillGaps',
]);

type FillArgs = Parameters<Journal['recordFill']>;

/**
 * The journal as the bot's runtime writers see it (the tracker's order, fill and position
 * records, the strategies' saved state): every write goes through the resilient journal, so a
 * full disk or an I/O error turns the journal down (opening stops) instead of throwing into a
 * feed, and the record is kept and written once the journal takes writes again. Reads go to the
 * journal as they are. A fill seen while the journal is down is still counted once: it is new
 * unless the journal or the records kept meanwhile already hold it.
 */
export function guardedJournalWrites(journal: Journal, resilient: ResilientEngineJournal): Journal {
  const keptFills = new Set<string>();
  const fillKey = (args: FillArgs): string => `${args[0].toLowerCase()}:${args[1].id}`;
  return new Proxy(journal, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      const name = String(property);
      if (name === 'recordFill')
        return (...args: FillArgs) =>
          resilient.writeThrough(
            name,
            args,
            () => target.recordFill(...args),
            () => {
              const key = fillKey(args);
              if (keptFills.has(key) || target.hasFill(args[0], args[1].id)) return false;
              keptFills.add(key);
              return true;
            },
          );
      if (KEPT_WRITES.has(name))
        return (...args: unknown[]) =>
          resilient.writeThrough(
            name,
            args,
            () => method.apply(target, args),
            () => undefined,
          );
      return method.bind(target);
    },
  });
}
