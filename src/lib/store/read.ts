/**
 * Reading sessions back out of one or more stores, in the reader's own shapes: a `SessionSource` the brain reader
 * reads through (`readSession(ref, source)`), so a stored session goes through the same inventory, merge and
 * metadata code as a folder. What the source shows of a session:
 *
 * - every path ever stored, with its latest content (a file deleted from disk is still there);
 * - each transcript as every line ever stored, in the stored order, lines no longer on disk carrying `goneSince`
 *   (the merge marks steps made only of such lines), and the step ranges every snapshot saw (`coverage`);
 * - from several stores (`ARCHIVE_STORES`), the same session merged as if their snapshots were one store's.
 *
 * Older contents of artifact files are added as extra artifact versions (`replacedAt`), beyond `.resolved.N`.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { badEncoding, badLine, boundLineNesting, parseLine } from '../brain/jsonl.ts';
import { readSession } from '../brain/session.ts';
import type { SafeEntry, SessionSource } from '../brain/session-fs.ts';
import { MAIN } from '../brain/transcripts.ts';
import { storedConversation } from './conversation.ts';
import type { ArtifactVersion, Problem, Session, SessionRef, StepRange, TranscriptLine } from '../brain/types.ts';
import { identityKey, unionOrder } from './lines.ts';
import { SAFE_RANGE, asStoreError, openStore } from './schema.ts';

/** A session as one or more stores hold it, before it is read. */
export interface StoredSessionInfo {
  ref: SessionRef;
  /** When the first store saw it, and the last time any store did (ISO). */
  firstSeen: string;
  lastSeen: string;
  /** Set when its folder is gone from disk in every store holding it: the latest such time (ISO). */
  notOnDiskSince?: string;
}

interface SessionRow {
  id: string;
  product: string;
  root: string;
  dir: string;
  ctime_ms: number;
  mtime_ms: number;
  first_seen: string;
  last_seen: string;
  gone_since: string | null;
  version: number;
  bytes: number;
}

/** Open stores read-only, once per process (a build reads many sessions from the same files). */
const opened = new Map<string, DatabaseSync>();
function storeDb(file: string): DatabaseSync {
  let db = opened.get(file);
  if (!db) {
    db = openStore(file, { readOnly: true });
    opened.set(file, db);
  }
  return db;
}

/** Close the stores this module opened (tests; a process exiting closes them anyway). */
export function closeStoredReaders(): void {
  for (const db of opened.values()) db.close();
  opened.clear();
}

/**
 * Every session the stores hold, one per id (the same id in two stores is one session), with a `stored` ref the
 * pipeline reads through `readStoredSession`. The fingerprint changes whenever any store's copy changes.
 */
export function listStoredSessions(stores: readonly string[]): StoredSessionInfo[] {
  const byId = new Map<string, Array<{ store: string; row: SessionRow; bytes: number }>>();
  for (const store of stores) {
    const db = storeDb(store);
    let rows: SessionRow[];
    try {
      rows = db.prepare('SELECT * FROM sessions').all() as unknown as SessionRow[];
    } catch (error) {
      // A damaged store: a message and a hint, not a stack trace.
      throw asStoreError(error, store) ?? error;
    }
    // A damaged page can read back as NULLs rather than fail (seen with zeroed pages): the same message.
    if (rows.some((r) => typeof r.id !== 'string' || typeof r.dir !== 'string' || typeof r.root !== 'string')) {
      throw asStoreError(Object.assign(new Error('a session row holds no id or folder'), { errcode: 11 }), store) as Error;
    }
    for (const row of rows) {
      const list = byId.get(row.id) ?? [];
      list.push({ store, row, bytes: row.bytes });
      byId.set(row.id, list);
    }
  }
  const out: StoredSessionInfo[] = [];
  for (const [id, copies] of byId) {
    const latest = copies.reduce((a, b) => (b.row.last_seen > a.row.last_seen ? b : a));
    const allGone = copies.every((c) => c.row.gone_since !== null);
    const notOnDiskSince = allGone ? copies.map((c) => c.row.gone_since as string).sort().at(-1) : undefined;
    const ref: SessionRef = {
      id,
      product: latest.row.product,
      root: latest.row.root,
      dir: latest.row.dir,
      mtimeMs: latest.row.mtime_ms,
      ctimeMs: Math.min(...copies.map((c) => c.row.ctime_ms)),
      stored: {
        stores: copies.map((c) => c.store),
        fingerprint: copies.map((c) => `${c.store}\0${c.row.version}\0${c.row.gone_since ?? ''}`).join('\n'),
        bytes: Math.max(...copies.map((c) => c.bytes)),
        ...(notOnDiskSince ? { notOnDiskSince } : {}),
      },
    };
    out.push({
      ref,
      firstSeen: copies.map((c) => c.row.first_seen).sort()[0] as string,
      lastSeen: copies.map((c) => c.row.last_seen).sort().at(-1) as string,
      ...(notOnDiskSince ? { notOnDiskSince } : {}),
    });
  }
  return out.sort((a, b) => b.ref.mtimeMs - a.ref.mtimeMs || a.ref.id.localeCompare(b.ref.id));
}

interface VersionRow {
  path: string;
  blob: string;
  size: number;
  first_seen: string;
  last_seen: string;
}

interface LineRow {
  bad_utf8: number;
  hash: string;
  dup: number;
  raw: string;
  file: string;
  line: number;
  gone_since: string | null;
}

/** A stored file version with the store that holds its bytes. */
interface StoredVersion extends VersionRow {
  db: DatabaseSync;
}

/** Every stored version of every path of a session across stores, newest `last_seen` last per path. */
function versionsOf(dbs: DatabaseSync[], id: string): Map<string, StoredVersion[]> {
  const out = new Map<string, StoredVersion[]>();
  for (const db of dbs) {
    const rows = db
      .prepare('SELECT path, blob, size, first_seen, last_seen FROM file_versions WHERE session_id = ? ORDER BY path, last_seen, id')
      .all(id) as unknown as VersionRow[];
    for (const row of rows) {
      const list = out.get(row.path) ?? [];
      const same = list.find((v) => v.blob === row.blob);
      if (same) {
        if (row.last_seen > same.last_seen) same.last_seen = row.last_seen;
        if (row.first_seen < same.first_seen) same.first_seen = row.first_seen;
      } else list.push({ ...row, db });
      out.set(row.path, list);
    }
  }
  for (const list of out.values()) list.sort((a, b) => a.last_seen.localeCompare(b.last_seen) || a.first_seen.localeCompare(b.first_seen));
  return out;
}

/** The transcript's lines across stores, in one order, each with the latest `gone_since` (none if on disk anywhere). */
function storedLines(dbs: DatabaseSync[], id: string, transcript: 'compact' | 'full'): LineRow[] {
  let order: LineRow[] = [];
  const byKey = new Map<string, LineRow>();
  for (const db of dbs) {
    const rows = db
      .prepare('SELECT hash, dup, raw, file, line, gone_since, bad_utf8 FROM transcript_lines WHERE session_id = ? AND transcript = ? ORDER BY seq')
      .all(id, transcript) as unknown as LineRow[];
    if (order.length === 0) {
      order = rows;
      for (const r of rows) byKey.set(identityKey(r), r);
      continue;
    }
    for (const r of rows) {
      const seen = byKey.get(identityKey(r));
      if (!seen) continue;
      if (seen.gone_since !== null && (r.gone_since === null || r.gone_since > seen.gone_since)) seen.gone_since = r.gone_since;
      if (r.gone_since === null) Object.assign(seen, { file: r.file, line: r.line });
    }
    order = unionOrder(order, rows, identityKey);
    for (const r of order) if (!byKey.has(identityKey(r))) byKey.set(identityKey(r), r);
  }
  return order;
}

function storedCoverage(dbs: DatabaseSync[], id: string, transcript: 'compact' | 'full'): StepRange[] {
  const out: StepRange[] = [];
  for (const db of dbs) {
    out.push(
      ...(db
        .prepare(`SELECT first_index AS "from", last_index AS "to" FROM coverage WHERE session_id = ? AND transcript = ? ${SAFE_RANGE}`)
        .all(id, transcript) as unknown as StepRange[]),
    );
  }
  return out;
}

/**
 * One prepared statement per store for reading a blob: preparing it for every file read took most of the time of
 * reading a session of many step folders back, and more per read the more statements were alive (8,000 step
 * folders: 5.3 s, 4x the time of 2,000 ×6.6).
 */
const blobQueries = new WeakMap<DatabaseSync, StatementSync>();
function blobQuery(db: DatabaseSync): StatementSync {
  let query = blobQueries.get(db);
  if (!query) blobQueries.set(db, (query = db.prepare('SELECT data FROM blobs WHERE hash = ?')));
  return query;
}

/** The reader's view of a stored session: a folder made of the latest stored content of every path. */
function storedSource(dbs: DatabaseSync[], id: string, versions: Map<string, StoredVersion[]>): SessionSource {
  const latest = new Map<string, StoredVersion>();
  for (const [p, list] of versions) {
    const v = list.at(-1);
    if (v) latest.set(p, v);
  }
  // Every folder's entries, made once: listing a folder by scanning every stored path made reading a session of
  // 50,000 step folders back take 7 min (10,000: 13.5 s; one scan per folder listed, issue 19).
  let folders: Map<string, Map<string, SafeEntry>> | undefined;
  const folderIndex = (): Map<string, Map<string, SafeEntry>> => {
    if (folders) return folders;
    folders = new Map();
    for (const p of latest.keys()) {
      const parts = p.split('/');
      for (let depth = 0; depth < parts.length; depth++) {
        const parent = parts.slice(0, depth).join('/');
        const name = parts[depth] as string;
        let entries = folders.get(parent);
        if (!entries) folders.set(parent, (entries = new Map()));
        if (entries.has(name)) continue;
        const rel = parent === '' ? name : `${parent}/${name}`;
        entries.set(name, { name, rel, kind: depth === parts.length - 1 ? 'file' : 'dir', plain: true });
      }
    }
    return folders;
  };
  return {
    list(rel) {
      const entries = folderIndex().get(rel === '.' || rel === '' ? '' : rel);
      return entries ? [...entries.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) : [];
    },
    read(rel, maxBytes) {
      const v = latest.get(rel);
      if (!v) return undefined;
      if (maxBytes <= 0) return { bytes: Buffer.alloc(0), size: v.size };
      const row = blobQuery(v.db).get(v.blob) as { data: Uint8Array } | undefined;
      if (!row) return undefined;
      const bytes = Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
      return { bytes: bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes, size: v.size };
    },
    transcript(transcript, budget, visit) {
      // The store keeps compact and full as lines (snapshot.ts); overview.txt is kept as a file like any other, its
      // latest content read through `read` as from disk.
      if (transcript === 'overview') return undefined;
      const files = transcriptFilesOf(dbs, id, transcript);
      const rows = storedLines(dbs, id, transcript);
      if (rows.length === 0 && files.length === 0) return undefined;
      // Each line as the reader takes a line of a file, credited to the file and line it was last read from, its
      // problems in the order the reader meets them on disk (encoding, then parse).
      for (const row of rows) {
        if (row.bad_utf8) budget.add(badEncoding(row.file, row.line, id));
        const value = parseLine(row.raw);
        if (value === undefined) budget.add(badLine(row.raw, Buffer.byteLength(row.raw), row.file, row.line, id));
        else boundLineNesting(value, row.file, row.line, id, budget);
        const line: TranscriptLine = { transcript, file: row.file, line: row.line, raw: row.raw };
        if (value !== undefined) line.value = value;
        if (row.gone_since !== null) line.goneSince = row.gone_since;
        visit(line);
      }
      return { files, coverage: storedCoverage(dbs, id, transcript) };
    },
    conversation() {
      return storedConversation(dbs, id);
    },
  };
}

/**
 * The files the reader would read for a transcript, as the stores last saw them: the main file when it is on disk,
 * else its chunks on disk; when none is on disk any more, those it was last read from.
 */
function transcriptFilesOf(dbs: DatabaseSync[], id: string, transcript: 'compact' | 'full'): string[] {
  const main = MAIN[transcript];
  const chunks = `.system_generated/logs/chunks/${transcript === 'compact' ? 'transcript' : 'transcript_full'}/`;
  const rows = new Map<string, boolean>();
  for (const db of dbs) {
    const found = db
      .prepare('SELECT path, gone_since IS NULL AS present FROM files WHERE session_id = ? AND (path = ? OR substr(path, 1, ?) = ?) ORDER BY path')
      .all(id, main, chunks.length, chunks) as Array<{ path: string; present: number }>;
    for (const r of found) rows.set(r.path, (rows.get(r.path) ?? false) || r.present === 1);
  }
  const chunkFiles = (present: boolean) => [...rows].filter(([p, on]) => p !== main && p.endsWith('.jsonl') && (!present || on)).map(([p]) => p).sort();
  if (rows.get(main)) return [main];
  const onDisk = chunkFiles(true);
  if (onDisk.length > 0) return onDisk;
  if (rows.has(main)) return [main];
  return chunkFiles(false);
}

const RESOLVED = /^(.+)\.resolved(?:\.(\d+))?$/;

/**
 * Read a stored session (`ref.stored` set by `listStoredSessions`) through the reader. Adds what only the store
 * knows: older artifact contents as versions, the problems its snapshots met, when it left the disk.
 */
export async function readStoredSession(ref: SessionRef): Promise<Session> {
  if (!ref.stored) throw new Error(`readStoredSession: session ${ref.id} has no stored ref`);
  const dbs = ref.stored.stores.map(storeDb);
  const versions = versionsOf(dbs, ref.id);
  const session = await readSession(ref, storedSource(dbs, ref.id, versions));
  addReplacedVersions(session, versions);
  for (const db of dbs) {
    const rows = db.prepare('SELECT kind, file, line, message FROM problems WHERE session_id = ?').all(ref.id) as Array<{ kind: string; file: string; line: number | null; message: string }>;
    for (const r of rows) {
      const p: Problem = { kind: r.kind as Problem['kind'], sessionId: ref.id, file: r.file, message: r.message };
      if (r.line !== null) p.line = r.line;
      session.problems.push(p);
    }
  }
  const seen = dbs.map((db) => db.prepare('SELECT first_seen, last_seen FROM sessions WHERE id = ?').get(ref.id) as { first_seen: string; last_seen: string } | undefined);
  const firsts = seen.flatMap((s) => (s ? [s.first_seen] : [])).sort();
  const lasts = seen.flatMap((s) => (s ? [s.last_seen] : [])).sort();
  if (firsts[0] && lasts.at(-1)) session.archived = { firstSeen: firsts[0], lastSeen: lasts.at(-1) as string };
  const gone = ref.stored.notOnDiskSince;
  if (gone) {
    session.notOnDiskSince = gone;
    for (const step of session.steps) step.notOnDiskSince ??= gone;
  }
  return session;
}

/** Older stored contents of each artifact's document and `.resolved*` files, as versions before those on disk. */
function addReplacedVersions(session: Session, versions: Map<string, StoredVersion[]>): void {
  for (const artifact of session.artifacts) {
    const older: ArtifactVersion[] = [];
    for (const [p, list] of versions) {
      // Names are paths (an artifact in a sub-folder is `<folder>/<name>`), so a path is compared whole.
      const resolved = RESOLVED.exec(p);
      if (p !== artifact.name && resolved?.[1] !== artifact.name) continue;
      for (const v of list.slice(0, -1)) {
        const row = blobQuery(v.db).get(v.blob) as { data: Uint8Array } | undefined;
        if (!row) continue;
        older.push({
          file: p,
          version: resolved?.[2] === undefined ? null : Number(resolved[2]),
          text: Buffer.from(row.data).toString('utf8'),
          replacedAt: v.last_seen,
        });
      }
    }
    if (older.length === 0) continue;
    older.sort((a, b) => (a.replacedAt ?? '').localeCompare(b.replacedAt ?? ''));
    artifact.versions = [...older, ...artifact.versions];
  }
}

/** The latest stored bytes of one file of a stored session (uploads the site publishes), at most `maxBytes`. */
export function storedFileBytes(ref: SessionRef, file: string, maxBytes: number): { bytes: Buffer; size: number } | undefined {
  if (!ref.stored) return undefined;
  const dbs = ref.stored.stores.map(storeDb);
  return storedSource(dbs, ref.id, versionsOf(dbs, ref.id)).read(file, maxBytes);
}
