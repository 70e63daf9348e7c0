/**
 * The archive store's file format: one SQLite database, opened through Node's built-in `node:sqlite` (no native
 * add-on to compile). This module owns the schema: the numbered migrations below, `PRAGMA user_version` saying
 * how many have run, and `PRAGMA application_id` saying the file is ours. The tables are documented in README.md
 * ("The archive store") for people who query the file with `sqlite3`.
 *
 * Opening never overwrites what it does not understand: a file that is not SQLite, a SQLite database of some other
 * program, or a store written by a newer agy-archive stops with a `StoreError` (message plus hint), and the file is
 * left untouched.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** `PRAGMA application_id` of an agy-archive store: the bytes `agyA`. */
export const APPLICATION_ID = 0x61677941;

/** How long a writer waits for another writer (a cron snapshot while a build snapshots) before giving up. */
export const BUSY_TIMEOUT_MS = 120_000;

/**
 * The migrations, in order; `user_version` is how many have run. Never edit one that has shipped: add the next.
 * Times are ISO-8601 UTC text, so `sqlite3` users can read and compare them.
 */
const MIGRATIONS: readonly string[] = [
  // 1: the first schema.
  `
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;

  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    product TEXT NOT NULL,
    root TEXT NOT NULL,
    dir TEXT NOT NULL,
    ctime_ms REAL NOT NULL,
    mtime_ms REAL NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    gone_since TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    bytes INTEGER NOT NULL DEFAULT 0
  ) STRICT;

  CREATE TABLE snapshots (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    taken_at TEXT NOT NULL,
    files_read INTEGER NOT NULL,
    lines_added INTEGER NOT NULL,
    lines_gone INTEGER NOT NULL,
    versions_added INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX snapshots_by_session ON snapshots(session_id);

  CREATE TABLE blobs (
    hash TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    data BLOB NOT NULL
  ) STRICT;

  CREATE TABLE files (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms REAL NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    gone_since TEXT,
    PRIMARY KEY (session_id, path)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE file_versions (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    blob TEXT NOT NULL REFERENCES blobs(hash),
    size INTEGER NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    UNIQUE (session_id, path, blob)
  ) STRICT;
  CREATE INDEX file_versions_by_blob ON file_versions(blob);

  CREATE TABLE transcript_lines (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    transcript TEXT NOT NULL CHECK (transcript IN ('compact', 'full')),
    seq INTEGER NOT NULL,
    hash TEXT NOT NULL,
    dup INTEGER NOT NULL,
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    torn INTEGER NOT NULL DEFAULT 0,
    bad_utf8 INTEGER NOT NULL DEFAULT 0,
    first_seen TEXT NOT NULL,
    gone_since TEXT,
    -- Last: a line is often larger than a page, and SQLite reads a row's columns in order, so every other column
    -- can be read without reading the text.
    raw TEXT NOT NULL,
    UNIQUE (session_id, transcript, hash, dup)
  ) STRICT;
  CREATE INDEX transcript_lines_in_order ON transcript_lines(session_id, transcript, seq);
  -- What the disk no longer holds, counted after every run without a scan of the lines.
  CREATE INDEX transcript_lines_gone ON transcript_lines(session_id) WHERE gone_since IS NOT NULL;

  CREATE TABLE coverage (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    transcript TEXT NOT NULL CHECK (transcript IN ('compact', 'full')),
    first_index INTEGER NOT NULL,
    last_index INTEGER NOT NULL,
    PRIMARY KEY (session_id, transcript, first_index)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE problems (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    file TEXT NOT NULL,
    line INTEGER,
    message TEXT NOT NULL,
    seen_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX problems_by_session ON problems(session_id);
  `,
  // 2: the conversation database of each session (issue 29): its decoded rows by id, and what was read of it last.
  `
  CREATE TABLE conversation_dbs (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    stamp TEXT NOT NULL,
    facts TEXT NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE conversation_rows (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    idx INTEGER NOT NULL,
    data TEXT NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    PRIMARY KEY (session_id, kind, idx)
  ) STRICT;
  `,
];

/** The schema version this code writes: stores with a higher `user_version` are refused. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** A store that cannot be used as asked: what is wrong, and what to do. The file was not changed. */
export class StoreError extends Error {
  /** What the user can do about it. */
  readonly hint: string;
  constructor(message: string, hint: string, options?: { cause?: unknown }) {
    super(`${message}\nHint: ${hint}`, options);
    this.name = 'StoreError';
    this.hint = hint;
  }
}

/**
 * The SQLite failures that are the store's, not one session's (primary result codes): the file or its folder
 * read-only, damaged, on a full disk, failing I/O, held by another process past the busy timeout. A read-only or
 * damaged store once ended `npm run archive` and `npm run build` with a stack trace and exit code 1.
 */
const STORE_FAILURES: Record<number, { why: string; hint: string }> = {
  3: {
    why: 'permission denied',
    hint:
      'Check the permissions of the file and its folder (SQLite writes a journal beside it), or point ARCHIVE_STORE elsewhere; ' +
      'to build the site from a store you cannot write, use ARCHIVE_STORES=<file> (read-only, nothing is snapshotted).',
  },
  5: { why: 'another process held it past the busy timeout', hint: 'Run the command again once the other snapshot or build has finished.' },
  6: { why: 'it is locked', hint: 'Run the command again once the other snapshot or build has finished.' },
  8: {
    why: 'it is read-only',
    hint:
      'Make the file and its folder writable (SQLite writes a journal beside it), or point ARCHIVE_STORE elsewhere; ' +
      'to build the site from a store you cannot write, use ARCHIVE_STORES=<file> (read-only, nothing is snapshotted).',
  },
  10: { why: 'a disk I/O error', hint: 'Check the disk, keep a copy of the store, then run the command again.' },
  11: {
    why: 'the database is damaged',
    hint: 'Keep a copy, then try `sqlite3 FILE ".recover" | sqlite3 NEW` and point ARCHIVE_STORE at NEW, or point ARCHIVE_STORE elsewhere to start a new store.',
  },
  13: { why: 'the disk is full', hint: 'Free some space, then run the command again (what was stored before is intact).' },
  14: { why: 'it cannot be opened', hint: 'Check the path and the permissions of the file and its folder.' },
  26: {
    why: 'it is not a database (damaged)',
    hint: 'Keep a copy, then try `sqlite3 FILE ".recover"`, or point ARCHIVE_STORE elsewhere to start a new store.',
  },
};

/** File-system errors (setting the store's mode, making its folder) as the SQLite failure they amount to. */
const FS_FAILURES: Record<string, number> = { EACCES: 3, EPERM: 3, EROFS: 8, ENOSPC: 13, EIO: 10 };

/**
 * `error` as a `StoreError` with a hint when it is a failure of the store at `file` itself (see `STORE_FAILURES`),
 * else undefined (a failure of one session's data, or a bug).
 */
export function asStoreError(error: unknown, file: string): StoreError | undefined {
  if (error instanceof StoreError) return error;
  const { errcode, code } = (error ?? {}) as { errcode?: unknown; code?: unknown };
  const failure =
    typeof errcode === 'number'
      ? STORE_FAILURES[errcode & 0xff]
      : typeof code === 'string'
        ? STORE_FAILURES[FS_FAILURES[code] ?? -1]
        : undefined;
  if (!failure) return undefined;
  return new StoreError(
    `The archive store ${file} cannot be used: ${failure.why} (${(error as Error).message}); the command stopped there.`,
    failure.hint,
    { cause: error },
  );
}

/** Stores already checked by `diagnoseStoreFailure` in this process, and whether they passed. */
const checked = new Map<string, boolean>();

/**
 * After an error while using the store at `file` that `asStoreError` does not name: whether the store is damaged
 * (`PRAGMA quick_check`, run once per store and process, only on this error path: it reads every page). A damaged
 * page can read back as NULLs rather than fail, which then broke code far from the store with a TypeError.
 */
export function diagnoseStoreFailure(error: unknown, file: string): StoreError | undefined {
  const known = asStoreError(error, file);
  if (known) return known;
  let healthy = checked.get(file);
  if (healthy === undefined) {
    try {
      const db = new DatabaseSync(file, { readOnly: true, timeout: BUSY_TIMEOUT_MS });
      try {
        healthy = (db.prepare('PRAGMA quick_check(1)').get() as { quick_check?: string } | undefined)?.quick_check === 'ok';
      } finally {
        db.close();
      }
    } catch (checkError) {
      const stop = asStoreError(checkError, file);
      if (stop) return stop;
      healthy = false;
    }
    checked.set(file, healthy);
  }
  if (healthy) return undefined;
  return asStoreError(Object.assign(new Error(`PRAGMA quick_check failed after: ${(error as Error)?.message ?? String(error)}`), { errcode: 11 }), file);
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** True when the file starts with SQLite's header (read before SQLite is let near it). */
function looksLikeSqlite(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const n = readSync(fd, head, 0, head.length, 0);
    return n === head.length && head.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}

/** Options of `openStore`. */
export interface OpenStoreOptions {
  /** Open read-only (building from a store, `ARCHIVE_STORES`): the file must exist and is never written. */
  readOnly?: boolean;
}

/**
 * Open (creating when missing, unless read-only) the store at `file`, migrate it to `SCHEMA_VERSION`, and return
 * the connection: WAL journal, a busy timeout, foreign keys on, file mode 0600. Throws `StoreError` for a file
 * that is not ours, a store from a newer version, or a corrupt file, before writing anything to it.
 */
export function openStore(file: string, options: OpenStoreOptions = {}): DatabaseSync {
  const exists = existsSync(file);
  if (!exists && options.readOnly) {
    throw new StoreError(`The archive store ${file} does not exist.`, 'Check the path in ARCHIVE_STORES, or run `npm run archive` to create it.');
  }
  if (exists) {
    if (!statSync(file).isFile()) {
      throw new StoreError(`${file} is not a file, so it cannot be the archive store.`, 'Point ARCHIVE_STORE at a file path.');
    }
    if (statSync(file).size > 0 && !looksLikeSqlite(file)) {
      throw new StoreError(
        `${file} is not an SQLite database, so it is not an agy-archive store; it was left untouched.`,
        'Point ARCHIVE_STORE at another path (or move that file away).',
      );
    }
  } else {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  }
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { readOnly: options.readOnly === true, timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new StoreError(`Could not open the archive store ${file}: ${(error as Error).message}.`, 'Check the file permissions.', { cause: error });
  }
  try {
    checkOwnership(db, file);
    if (!options.readOnly) checkIntact(db, file);
    if (!options.readOnly) {
      // Before any table is written, so the -wal and -shm files are created with the same mode as the store.
      chmodSync(file, 0o600);
      useWal(db);
      migrate(db);
      for (const side of ['-wal', '-shm']) if (existsSync(file + side)) chmodSync(file + side, 0o600);
    }
    db.exec('PRAGMA foreign_keys = ON');
    return db;
  } catch (error) {
    db.close();
    throw asStoreError(error, file) ?? error;
  }
}

/**
 * Close a store opened for writing and note the file as this tool left it (`<store>.checked`: size, mtime, inode),
 * so the next open checks only a file changed since by something else (see `checkIntact`).
 */
export function closeStore(db: DatabaseSync, file: string): void {
  db.close();
  try {
    // With another connection still open its -wal holds pages not in the file yet: leave the check to the next open.
    if (existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 0) return;
    writeFileSync(checkedMarkOf(file), JSON.stringify(fingerprint(file)), { mode: 0o600 });
  } catch {
    // A store in a folder that cannot take the note is checked at each open instead.
  }
}

function checkedMarkOf(file: string): string {
  return `${file}.checked`;
}

function fingerprint(file: string): { size: number; mtimeMs: number; ino: number } {
  const st = statSync(file);
  return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
}

/** True when the store file is as `closeStore` left it: same size, mtime and inode, and no pending -wal. */
function unchangedSinceClose(file: string): boolean {
  try {
    const noted = JSON.parse(readFileSync(checkedMarkOf(file), 'utf8')) as Record<string, unknown>;
    const now = fingerprint(file);
    if (existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 0) return false;
    return noted.size === now.size && noted.mtimeMs === now.mtimeMs && noted.ino === now.ino;
  } catch {
    return false;
  }
}

/**
 * Refuse to write into a damaged store. A damaged page that no query of a snapshot reads went unnoticed: `npm run
 * archive` exited 0 and wrote into the file (issue 27). `PRAGMA quick_check` reads every page (1.4–2.5 s for a
 * 310 MB store on this machine), so it runs only when the file changed since this tool last closed it.
 */
function checkIntact(db: DatabaseSync, file: string): void {
  if (unchangedSinceClose(file)) return;
  let result: string;
  try {
    result = String((db.prepare('PRAGMA quick_check(1)').get() as { quick_check?: unknown } | undefined)?.quick_check);
  } catch (error) {
    throw asStoreError(error, file) ?? error;
  }
  if (result === 'ok') return;
  throw new StoreError(
    `The archive store ${file} cannot be used: the database is damaged (PRAGMA quick_check: ${result.replace(/\s+/g, ' ').trim()}); nothing was written to it.`,
    STORE_FAILURES[11]?.hint ?? '',
  );
}

/** SQLite's result code for a database file another connection holds. */
const SQLITE_BUSY = 5;

/**
 * Switch the store to WAL, waiting out another process that is opening it too. The switch needs the file to itself,
 * and SQLite may answer SQLITE_BUSY at once instead of calling the busy handler when waiting could deadlock
 * (sqlite3_busy_handler's documentation): two snapshots into a new store at once failed within half a second with
 * "database is locked" (test/store/reliability.test.ts, 2026-12-01). So it is retried, up to the busy timeout.
 */
function useWal(db: DatabaseSync): void {
  const until = Date.now() + BUSY_TIMEOUT_MS;
  for (let waitMs = 5; ; waitMs = Math.min(waitMs * 2, 200)) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { errcode?: number }).errcode !== SQLITE_BUSY || Date.now() > until) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, waitMs);
    }
  }
}

/** Refuse a database that is not ours, newer than this code, or corrupt: nothing has been written yet. */
function checkOwnership(db: DatabaseSync, file: string): void {
  let appId: number;
  let version: number;
  let tables: number;
  try {
    // One read transaction: three reads apart could see another process's first migration commit between them
    // (application_id 0, then its tables) and take a new store for another program's (seen on a loaded CI run of
    // two snapshots at once).
    db.exec('BEGIN');
    try {
      appId = Number((db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id);
      version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
      tables = Number((db.prepare("SELECT count(*) AS n FROM sqlite_schema").get() as { n: number }).n);
    } finally {
      db.exec('COMMIT');
    }
  } catch (error) {
    // A read-only folder (no -shm can be made beside a WAL store) or a permission is not damage: its own hint.
    const named = asStoreError(error, file);
    if (named) throw named;
    throw new StoreError(
      `The archive store ${file} cannot be read (${(error as Error).message}); it was left untouched.`,
      'It may be corrupt: keep a copy, then try `sqlite3 FILE ".recover"`, or point ARCHIVE_STORE elsewhere to start a new store.',
      { cause: error },
    );
  }
  if (appId === 0 && version === 0 && tables === 0) return; // A new, empty database: ours to set up.
  if (appId !== APPLICATION_ID) {
    throw new StoreError(
      `${file} is an SQLite database of another program (application_id ${appId}), not an agy-archive store; it was left untouched.`,
      'Point ARCHIVE_STORE at another path.',
    );
  }
  if (version > SCHEMA_VERSION) {
    throw new StoreError(
      `The archive store ${file} was written by a newer agy-archive (schema ${version}; this one knows up to ${SCHEMA_VERSION}); it was left untouched.`,
      'Update agy-archive (git pull && npm ci), or point ARCHIVE_STORE at another path.',
    );
  }
}

/** Run the migrations not yet run, each in its own transaction with the `user_version` bump. */
function migrate(db: DatabaseSync): void {
  for (;;) {
    db.exec('BEGIN IMMEDIATE');
    try {
      // Read inside the write lock: two processes opening a new store at once run each migration once.
      const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
      if (version >= SCHEMA_VERSION) {
        db.exec('COMMIT');
        return;
      }
      if (version === 0) db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
      db.exec(MIGRATIONS[version] as string);
      if (version === 0) {
        db.prepare("INSERT INTO meta(key, value) VALUES ('format', 'agy-archive store'), ('created_at', ?)").run(new Date().toISOString());
      }
      db.exec(`PRAGMA user_version = ${version + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}

/**
 * Coverage rows a JavaScript number can hold: a range an older snapshot stored up to a step number above 2^53
 * (before `step-index.ts` refused it) made node:sqlite throw on reading, and the session went missing from the site.
 */
export const SAFE_RANGE = `AND first_index BETWEEN 0 AND ${Number.MAX_SAFE_INTEGER} AND last_index BETWEEN 0 AND ${Number.MAX_SAFE_INTEGER}`;
