import Database from 'better-sqlite3';
import { JournalError } from './journalError.js';
import { MIGRATIONS } from './journalMigrations.js';

const DAMAGED_HINTS = (path: string): string[] => [
  `restore ${path} from a backup (with its -wal file), or`,
  `move it aside (mv ${path} ${path}.damaged) and start again: the bot reads open orders, positions and nonces back from the venue at start, and the earlier runs' history stays in the moved file`,
];

/**
 * SQLite's own check of the file's structure (`quick_check`: every page, index and record format,
 * without cross-checking index contents, so it stays fast on a large journal). A journal damaged
 * between runs is refused here, at start, rather than found by the first write that lands on a bad
 * page in the middle of trading.
 */
export function checkJournalIntegrity(db: Database.Database, path: string): void {
  const rows = db.pragma('quick_check') as { quick_check: string }[];
  const problems = rows.map((row) => row.quick_check).filter((text) => text !== 'ok');
  if (problems.length === 0) return;
  throw new JournalError(`the journal ${path} is damaged: ${problems.slice(0, 3).join('; ')}`, {
    code: 'JOURNAL_CORRUPT',
    details: { path, problems: problems.slice(0, 10) },
    hints: DAMAGED_HINTS(path),
  });
}

/**
 * A SQLite file with tables but no `schema_version` is some other program's database: migrating
 * it would add perpbot's tables to it (and switch it to WAL), so it is refused before anything is
 * written, naming a few of its tables.
 */
export function refuseForeignDatabase(db: Database.Database, path: string): void {
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
      name: string;
    }[]
  ).map((row) => row.name);
  if (tables.length === 0 || tables.includes('schema_version')) return;
  throw new JournalError(
    `the journal ${path} is another program's database (tables ${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', ...' : ''}; no perpbot schema_version), left as it is`,
    {
      code: 'JOURNAL_CORRUPT',
      details: { path, tables: tables.slice(0, 20) },
      hints: ['point journal.path at a file of its own: perpbot creates its journal where none is'],
    },
  );
}

let expected: ReadonlyMap<string, readonly string[]> | undefined;

/**
 * After migration, every table the migrations create is there with every column they give it:
 * a file of the right version that another program changed (or a damaged catalogue) is refused
 * before the bot trusts its nonces. Extra tables and columns are left alone.
 */
export function checkJournalSchema(db: Database.Database, path: string): void {
  expected ??= schemaOf(migratedInMemory());
  const actual = schemaOf(db);
  for (const [table, columns] of expected) {
    const present = actual.get(table);
    const missing = present === undefined ? columns : columns.filter((c) => !present.includes(c));
    if (missing.length === 0) continue;
    throw new JournalError(
      present === undefined
        ? `the journal ${path} has no table ${table}, which its schema version promises`
        : `the journal ${path} lacks the column(s) ${missing.join(', ')} of table ${table}`,
      { code: 'JOURNAL_CORRUPT', details: { path, table, missing }, hints: DAMAGED_HINTS(path) },
    );
  }
}

export function damagedJournalHints(path: string): string[] {
  return DAMAGED_HINTS(path);
}

function migratedInMemory(): Database.Database {
  const db = new Database(':memory:');
  for (const sql of MIGRATIONS) db.exec(sql);
  return db;
}

function schemaOf(db: Database.Database): Map<string, string[]> {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as { name: string }[];
  return new Map(
    tables.map(({ name }) => [
      name,
      (db.prepare('SELECT name FROM pragma_table_info(?)').all(name) as { name: string }[]).map((c) => c.name),
    ]),
  );
}
