import type Database from 'better-sqlite3';

/**
 * The SQLite layout: `log` is the MVCC history (one row per write, revision = rowid, deletes are
 * tombstones with a NULL value), `current` the latest value of every live key for fast reads and
 * ranges, `meta` the current and compacted revisions. Revisions start at 1 on an empty store,
 * as etcd's do, so the first write gets revision 2.
 */
export function openSchema(db: Database.Database, opts: { shared: boolean; busyTimeoutMs: number }): void {
  if (!opts.shared) return createSchema(db, false);
  // Processes opening one fresh file at once race to turn it to WAL. SQLite refuses the loser
  // with SQLITE_BUSY without calling the busy handler (waiting could deadlock two lock
  // upgrades), so the open is tried again here, within the same busy timeout. Every step is
  // idempotent.
  const deadline = Date.now() + opts.busyTimeoutMs;
  for (;;) {
    try {
      return createSchema(db, true);
    } catch (e) {
      if (!isBusy(e) || Date.now() >= deadline) throw e;
      Atomics.wait(pause, 0, 0, 5 + Math.random() * 20);
    }
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

function isBusy(e: unknown): boolean {
  const code = e instanceof Error ? (e as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

function createSchema(db: Database.Database, shared: boolean): void {
  // FULL: a commit is on disk (WAL fsync'd) before a write is acknowledged.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  // By default one process owns the file (no shared-memory index, no lock traffic) and any
  // other opener is refused. Shared mode keeps SQLite's normal locking: several processes
  // read at once and writers take turns (BEGIN IMMEDIATE), each tailing the log for the others' writes.
  if (!shared) db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('cache_size = -65536');
  db.exec(`
    CREATE TABLE IF NOT EXISTS log (
      rev        INTEGER PRIMARY KEY,
      key        TEXT    NOT NULL,
      create_rev INTEGER NOT NULL,
      prev_rev   INTEGER NOT NULL,
      deleted    INTEGER NOT NULL,
      value      BLOB,
      expires_at INTEGER
    );
    CREATE INDEX IF NOT EXISTS log_key_rev ON log (key, rev);
    CREATE TABLE IF NOT EXISTS current (
      key        TEXT    PRIMARY KEY,
      create_rev INTEGER NOT NULL,
      mod_rev    INTEGER NOT NULL,
      value      BLOB    NOT NULL,
      expires_at INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS current_expiry ON current (expires_at) WHERE expires_at IS NOT NULL;
    CREATE TABLE IF NOT EXISTS meta (
      name  TEXT    PRIMARY KEY,
      value INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT OR IGNORE INTO meta (name, value) VALUES ('rev', 1), ('compact_rev', 0);
  `);
}

export interface CurrentRow {
  key: string;
  create_rev: number;
  mod_rev: number;
  value: Buffer;
  expires_at: number | null;
}

export interface LogRow {
  rev: number;
  key: string;
  create_rev: number;
  prev_rev: number;
  deleted: number;
  value: Buffer | null;
  expires_at: number | null;
  prev_value: Buffer | null;
  prev_create_rev: number | null;
  prev_expires_at: number | null;
}

/**
 * Prepared statements, compiled once per database. @internal (not in the package's declarations:
 * better-sqlite3's statement type cannot be named there).
 */
export function prepareStatements(db: Database.Database) {
  return {
    getMeta: db.prepare<[string], { value: number }>('SELECT value FROM meta WHERE name = ?'),
    setMeta: db.prepare<[string, number]>('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
    getCurrent: db.prepare<[string], CurrentRow>('SELECT key, create_rev, mod_rev, value, expires_at FROM current WHERE key = ?'),
    getAt: db.prepare<[string, number], { rev: number; create_rev: number; deleted: number; value: Buffer | null; expires_at: number | null }>(
      'SELECT rev, create_rev, deleted, value, expires_at FROM log WHERE key = ? AND rev <= ? ORDER BY rev DESC LIMIT 1',
    ),
    rangeCurrent: db.prepare<[string, string, number], CurrentRow>('SELECT key, create_rev, mod_rev, value, expires_at FROM current WHERE key >= ? AND key < ? ORDER BY key LIMIT ?'),
    countCurrent: db.prepare<[string, string], { n: number }>('SELECT COUNT(*) AS n FROM current WHERE key >= ? AND key < ?'),
    sizeCurrent: db.prepare<[string, string], { n: number; bytes: number }>('SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(value)), 0) AS bytes FROM current WHERE key >= ? AND key < ?'),
    // SQLite returns the other columns of the row holding MAX(rev) in an aggregate query.
    rangeAt: db.prepare<[string, string, number, number], { key: string; rev: number; create_rev: number; value: Buffer; expires_at: number | null }>(
      `SELECT key, rev, create_rev, value, expires_at FROM (
         SELECT key, MAX(rev) AS rev, create_rev, deleted, value, expires_at FROM log
         WHERE key >= ? AND key < ? AND rev <= ? GROUP BY key
       ) WHERE deleted = 0 ORDER BY key LIMIT ?`,
    ),
    countAt: db.prepare<[string, string, number], { n: number }>(
      `SELECT COUNT(*) AS n FROM (
         SELECT MAX(rev) AS rev, deleted FROM log WHERE key >= ? AND key < ? AND rev <= ? GROUP BY key
       ) WHERE deleted = 0`,
    ),
    insertLog: db.prepare<[number, string, number, number, number, Buffer | null, number | null]>(
      'INSERT INTO log (rev, key, create_rev, prev_rev, deleted, value, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    upsertCurrent: db.prepare<[string, number, number, Buffer, number | null]>(
      `INSERT INTO current (key, create_rev, mod_rev, value, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET create_rev = excluded.create_rev, mod_rev = excluded.mod_rev,
         value = excluded.value, expires_at = excluded.expires_at`,
    ),
    deleteCurrent: db.prepare<[string]>('DELETE FROM current WHERE key = ?'),
    // Replay for watches: events in (after, upTo] of a key range, with the previous value for DELETE/MODIFIED.
    eventsAfter: db.prepare<[number, number, string, string, number], LogRow>(
      `SELECT l.rev, l.key, l.create_rev, l.prev_rev, l.deleted, l.value, l.expires_at,
              p.value AS prev_value, p.create_rev AS prev_create_rev, p.expires_at AS prev_expires_at
       FROM log l LEFT JOIN log p ON p.rev = l.prev_rev
       WHERE l.rev > ? AND l.rev <= ? AND l.key >= ? AND l.key < ? ORDER BY l.rev LIMIT ?`,
    ),
    // The change feed (shared mode): every event in (after, upTo], all keys.
    feedAfter: db.prepare<[number, number, number], LogRow>(
      `SELECT l.rev, l.key, l.create_rev, l.prev_rev, l.deleted, l.value, l.expires_at,
              p.value AS prev_value, p.create_rev AS prev_create_rev, p.expires_at AS prev_expires_at
       FROM log l LEFT JOIN log p ON p.rev = l.prev_rev
       WHERE l.rev > ? AND l.rev <= ? ORDER BY l.rev LIMIT ?`,
    ),
    // Rows left in (after, upTo]: fewer than upTo - after means compaction removed some.
    logRowsBetween: db.prepare<[number, number], { n: number }>('SELECT COUNT(*) AS n FROM log WHERE rev > ? AND rev <= ?'),
    expired: db.prepare<[number, number], { key: string; mod_rev: number }>('SELECT key, mod_rev FROM current WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?'),
    // Compaction: rows at or below the compaction revision that a later row (also at or below it)
    // supersedes, and tombstones there; the newest live row of each key survives.
    compactBatch: db.prepare<[number, number, number]>(
      `DELETE FROM log WHERE rev IN (
         SELECT l.rev FROM log l WHERE l.rev <= ? AND (l.deleted = 1 OR EXISTS (
           SELECT 1 FROM log n WHERE n.key = l.key AND n.rev > l.rev AND n.rev <= ?)) LIMIT ?)`,
    ),
  };
}

/** @internal */
export type Statements = ReturnType<typeof prepareStatements>;
