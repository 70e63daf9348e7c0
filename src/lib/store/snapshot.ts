/**
 * Snapshots: copying what is new in a session folder into the store. A snapshot lists the folder (through the
 * reader's confined file access, so a symlink out of the folder is never followed), reads only the files whose
 * size or mtime changed since the last snapshot, and writes what is new in one transaction per session: a run
 * killed at any point leaves each session as it was before or after, never half-written.
 *
 * Transcripts are kept as lines (`transcript_lines`): a transcript that grew by one line costs one line. Every
 * other file is kept as content-addressed blobs, one `file_versions` row per distinct content of a path.
 * Nothing is ever deleted by a snapshot: a file or line no longer on disk gets its `gone_since` set.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import pLimit from 'p-limit';
import { openSessionFs, listDir, readBytes, type SessionFs } from '../brain/session-fs.ts';
import { snapshotConversation } from './conversation.ts';
import { ProblemBudget } from '../brain/problems.ts';
import { CoverageTracker, MAIN, readTranscript, type StepRange } from '../brain/transcripts.ts';
import type { TranscriptLine } from '../brain/chunks.ts';
import { searchedRoot } from '../brain/discover.ts';
import type { Discovery, Problem, SessionRef } from '../brain/types.ts';
import { identitiesOf, identityKey, unionOrder, type LineIdentity } from './lines.ts';
import { KeptLines } from './garbage.ts';
import { SAFE_RANGE, asStoreError, diagnoseStoreFailure } from './schema.ts';

/** Sessions listed and read at once by `snapshotAll` (I/O bound; more only raises the memory held). */
export const SNAPSHOT_CONCURRENCY = 4;

/** Bigger files are kept cut to this many bytes (a `too-large` problem says so). */
export const MAX_STORED_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The app's bookkeeping beside the messages (last read time, read flags): rewritten constantly, never shown, so not
 * kept (a folder read lists them on `/report/` as not shown; a stored session cannot).
 */
export const NOT_KEPT = new Set(['.system_generated/messages/cursor.json', '.system_generated/messages/read.json']);

/** Which transcript a file belongs to (its main file or one of its chunks), or undefined for any other file. */
export function transcriptOfFile(rel: string): 'compact' | 'full' | undefined {
  if (rel === MAIN.compact || rel.startsWith('.system_generated/logs/chunks/transcript/')) return 'compact';
  if (rel === MAIN.full || rel.startsWith('.system_generated/logs/chunks/transcript_full/')) return 'full';
  return undefined;
}

/** What one session's snapshot kept. */
export interface SessionSnapshot {
  id: string;
  /**
   * `new`: first snapshot; `changed`: something was added or went from disk; `unchanged`: nothing written;
   * `failed`: its data made the snapshot fail, the store keeps what it held (the problem says why).
   */
  status: 'new' | 'changed' | 'unchanged' | 'failed';
  /** Files whose size or mtime changed, read this time. */
  filesRead: number;
  /** Transcript lines new to the store. */
  linesAdded: number;
  /** Transcript lines that left the files on disk this time (kept in the store). */
  linesGone: number;
  /** File contents new to the store (a new file, or a file that changed). */
  versionsAdded: number;
  /** Files that left the disk this time (kept in the store). */
  filesGone: number;
  /** Bytes of new lines and new file contents stored. */
  bytesAdded: number;
  /** What could not be read (also kept in the store's `problems`, so the site's report lists it). */
  problems: Problem[];
}

/** What a whole run kept. */
export interface SnapshotSummary {
  sessions: SessionSnapshot[];
  /** Sessions whose folder is gone from disk since this run (kept, marked). */
  goneNow: string[];
  /** Stored sessions whose folder is not on disk, in all. */
  goneTotal: number;
  ms: number;
}

interface FileState {
  size: number;
  mtimeMs: number;
}

/** Every regular file of the session folder with its size and mtime, through the confined reader access. */
async function listFiles(sfs: SessionFs): Promise<Map<string, FileState>> {
  const out = new Map<string, FileState>();
  // A folder's entries are stat'ed at once: an unchanged run is nothing but this walk (a 100k-step home has
  // tens of thousands of files), and one stat at a time leaves the thread pool idle.
  async function walk(rel: string, depth: number): Promise<void> {
    await Promise.all(
      (await listDir(sfs, rel)).map(async (e) => {
        if (e.kind === 'dir') {
          if (depth < 16) await walk(e.rel, depth + 1);
          return;
        }
        if (NOT_KEPT.has(e.rel)) return;
        try {
          const st = await fs.stat(path.join(sfs.dir, e.rel));
          out.set(e.rel, { size: st.size, mtimeMs: st.mtimeMs });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // vanished while listing
          sfs.problems.push({ kind: 'unreadable', sessionId: sfs.sessionId, file: e.rel, message: `Could not stat ${e.rel} (${(error as NodeJS.ErrnoException).code ?? 'error'}); it was not archived this time.` });
        }
      }),
    );
  }
  await walk('.', 0);
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

interface ReadFile {
  rel: string;
  state: FileState;
  bytes: Buffer;
  hash: string;
}

interface StoredLine {
  id: number;
  seq: number;
  hash: string;
  dup: number;
  file: string;
  line: number;
  torn: number;
  raw: string | null;
  gone_since: string | null;
}

/** Problems a stored copy cannot show again by itself (the reader finds the others again in what was stored). */
const KEPT_PROBLEM_KINDS = new Set(['unreadable', 'symlink-outside', 'too-large']);

/**
 * Snapshot one session folder into `db`. Reads only what changed; writes in one transaction. Never throws for what
 * is on disk (it becomes a problem); throws only when the store itself cannot be written.
 */
export async function snapshotSession(db: DatabaseSync, ref: SessionRef, now = new Date().toISOString()): Promise<SessionSnapshot> {
  const problems: Problem[] = [];
  const sfs = await openSessionFs(ref.id, ref.dir, problems);
  const onDisk = await listFiles(sfs);
  const known = new Map<string, FileState & { gone: boolean }>();
  for (const row of db.prepare('SELECT path, size, mtime_ms, gone_since FROM files WHERE session_id = ?').all(ref.id) as Array<{ path: string; size: number; mtime_ms: number; gone_since: string | null }>) {
    known.set(row.path, { size: row.size, mtimeMs: row.mtime_ms, gone: row.gone_since !== null });
  }
  const session = db.prepare('SELECT gone_since, product, root, dir FROM sessions WHERE id = ?').get(ref.id) as
    | { gone_since: string | null; product: string; root: string; dir: string }
    | undefined;

  const changed: string[] = [];
  for (const [rel, st] of onDisk) {
    const k = known.get(rel);
    if (!k || k.gone || k.size !== st.size || k.mtimeMs !== st.mtimeMs) changed.push(rel);
  }
  const gone = [...known].filter(([rel, k]) => !k.gone && !onDisk.has(rel)).map(([rel]) => rel);

  // Transcripts are read whole (through the reader: main file, else its chunks) when any of their files changed.
  const transcriptsToRead = new Set<'compact' | 'full'>();
  for (const rel of [...changed, ...gone]) {
    const t = transcriptOfFile(rel);
    if (t) transcriptsToRead.add(t);
  }
  const transcripts = new Map<'compact' | 'full', { lines: TranscriptLine[]; badUtf8: Set<string> }>();
  for (const t of transcriptsToRead) {
    const before = problems.length;
    const kept = new KeptLines();
    await readTranscript(sfs, t, new ProblemBudget(problems, ref.id), (line) => kept.add(line));
    const lines = kept.finish();
    const notKept = kept.problem(ref.id, MAIN[t]);
    // The text kept has U+FFFD where the bytes were not UTF-8: the line is flagged so the reader can still say so.
    const badUtf8 = new Set(problems.slice(before).filter((p) => p.kind === 'bad-encoding' && p.line !== undefined).map((p) => `${p.file}:${p.line}`));
    // Line-level problems (torn lines, bad records) are found again by the reader in what is kept.
    const readProblems = problems.slice(before).filter((p) => KEPT_PROBLEM_KINDS.has(p.kind));
    problems.splice(before, problems.length - before, ...readProblems);
    // A transcript that could not be read whole is left as stored (its lines are not "gone"), and tried next time.
    if (readProblems.some((p) => p.kind !== 'too-large')) continue;
    if (notKept) problems.push(notKept);
    transcripts.set(t, { lines, badUtf8 });
  }
  // What a transcript not read again this time did not keep stays said (the lines stored are the same).
  for (const t of ['compact', 'full'] as const) {
    if (transcriptsToRead.has(t)) continue;
    const said = db
      .prepare("SELECT kind, file, line, message FROM problems WHERE session_id = ? AND kind = 'too-large' AND file = ? AND message LIKE '%counted, not stored, by the archive store.'")
      .all(ref.id, MAIN[t]) as Array<{ kind: 'too-large'; file: string; line: number | null; message: string }>;
    for (const p of said) problems.push({ kind: p.kind, sessionId: ref.id, file: p.file, message: p.message });
  }
  const files: ReadFile[] = [];
  const readTranscriptFiles: Array<{ rel: string; state: FileState }> = [];
  for (const rel of changed) {
    const state = onDisk.get(rel) as FileState;
    const t = transcriptOfFile(rel);
    if (t) {
      if (transcripts.has(t)) readTranscriptFiles.push({ rel, state });
      continue;
    }
    const got = await readBytes(sfs, rel, MAX_STORED_FILE_BYTES);
    if (!got) continue; // unreadable (a problem says so) or vanished: tried again next time
    if (got.size > got.bytes.length) {
      problems.push({ kind: 'too-large', sessionId: ref.id, file: rel, message: `${rel} is ${got.size} bytes; the archive keeps its first ${got.bytes.length} bytes.` });
    }
    files.push({ rel, state, bytes: got.bytes, hash: sha256(got.bytes) });
  }

  const keptProblems = problems.filter((p) => KEPT_PROBLEM_KINDS.has(p.kind));
  const problemsKey = (list: Array<{ kind: string; file: string; message: string }>): string =>
    list.map((p) => `${p.kind}\0${p.file}\0${p.message}`).sort().join('\n');
  const storedProblems = db.prepare('SELECT kind, file, message FROM problems WHERE session_id = ?').all(ref.id) as Array<{ kind: string; file: string; message: string }>;
  const sameRef = session !== undefined && session.gone_since === null && session.product === ref.product && session.root === ref.root && session.dir === ref.dir;
  const result: SessionSnapshot = {
    id: ref.id,
    status: session ? 'changed' : 'new',
    filesRead: files.length + readTranscriptFiles.length,
    linesAdded: 0,
    linesGone: 0,
    versionsAdded: 0,
    filesGone: gone.length,
    bytesAdded: 0,
    problems: keptProblems,
  };
  if (sameRef && files.length === 0 && transcripts.size === 0 && gone.length === 0 && problemsKey(keptProblems) === problemsKey(storedProblems)) {
    // Its `last_seen` is brought up to date by `snapshotAll`, in one transaction for every unchanged session.
    return { ...result, status: 'unchanged' };
  }

  db.exec('BEGIN IMMEDIATE');
  try {
    db.prepare(
      `INSERT INTO sessions (id, product, root, dir, ctime_ms, mtime_ms, first_seen, last_seen, gone_since, version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 1)
       ON CONFLICT(id) DO UPDATE SET product = excluded.product, root = excluded.root, dir = excluded.dir,
         ctime_ms = excluded.ctime_ms, mtime_ms = excluded.mtime_ms, last_seen = excluded.last_seen, gone_since = NULL,
         version = version + 1`,
    ).run(ref.id, ref.product, ref.root, ref.dir, ref.ctimeMs, ref.mtimeMs, now, now);

    const insertBlob = db.prepare('INSERT INTO blobs (hash, size, data) VALUES (?, ?, ?) ON CONFLICT(hash) DO NOTHING');
    const insertVersion = db.prepare(
      `INSERT INTO file_versions (session_id, path, blob, size, first_seen, last_seen) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(session_id, path, blob) DO UPDATE SET last_seen = excluded.last_seen`,
    );
    const versionExists = db.prepare('SELECT 1 AS x FROM file_versions WHERE session_id = ? AND path = ? AND blob = ?');
    const upsertFile = db.prepare(
      `INSERT INTO files (session_id, path, size, mtime_ms, first_seen, last_seen, gone_since) VALUES (?, ?, ?, ?, ?, ?, NULL)
       ON CONFLICT(session_id, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
         last_seen = excluded.last_seen, gone_since = NULL`,
    );
    for (const f of files) {
      insertBlob.run(f.hash, f.bytes.length, f.bytes);
      if (!versionExists.get(ref.id, f.rel, f.hash)) {
        result.versionsAdded++;
        result.bytesAdded += f.bytes.length;
      }
      insertVersion.run(ref.id, f.rel, f.hash, f.bytes.length, now, now);
      upsertFile.run(ref.id, f.rel, f.state.size, f.state.mtimeMs, now, now);
    }
    for (const f of readTranscriptFiles) upsertFile.run(ref.id, f.rel, f.state.size, f.state.mtimeMs, now, now);
    const markGone = db.prepare('UPDATE files SET gone_since = ? WHERE session_id = ? AND path = ?');
    for (const rel of gone) markGone.run(now, ref.id, rel);

    for (const [t, { lines, badUtf8 }] of transcripts) {
      const counts = storeTranscript(db, ref.id, t, lines, badUtf8, now);
      result.linesAdded += counts.added;
      result.bytesAdded += counts.bytes;
      result.linesGone += counts.gone;
    }

    db.prepare('DELETE FROM problems WHERE session_id = ?').run(ref.id);
    const insertProblem = db.prepare('INSERT INTO problems (session_id, kind, file, line, message, seen_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (const p of keptProblems) insertProblem.run(ref.id, p.kind, p.file, p.line ?? null, p.message, now);

    db.prepare('UPDATE sessions SET bytes = bytes + ? WHERE id = ?').run(result.bytesAdded, ref.id);
    db.prepare(
      'INSERT INTO snapshots (session_id, taken_at, files_read, lines_added, lines_gone, versions_added) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(ref.id, now, result.filesRead, result.linesAdded, result.linesGone, result.versionsAdded);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return result;
}

/**
 * Merge one version of a transcript into its stored lines: new lines are added in order (see `unionOrder`), lines
 * no longer in the file get `gone_since`, lines back in it lose it, and the version's step range joins `coverage`.
 * A torn last line (a record being written) that a longer line of this version completes is dropped: the complete
 * line supersedes it.
 */
function storeTranscript(
  db: DatabaseSync,
  sessionId: string,
  transcript: 'compact' | 'full',
  lines: TranscriptLine[],
  badUtf8: Set<string>,
  now: string,
): { added: number; gone: number; bytes: number } {
  const stored = db
    .prepare(
      `SELECT id, seq, hash, dup, file, line, torn, CASE WHEN torn = 1 THEN raw END AS raw, gone_since
       FROM transcript_lines WHERE session_id = ? AND transcript = ? ORDER BY seq`,
    )
    .all(sessionId, transcript) as unknown as StoredLine[];
  const ids = identitiesOf(lines.map((l) => l.raw));
  const versionKeys = new Set(ids.map(identityKey));

  const torn = stored.filter((s) => s.torn === 1 && s.raw !== null && !versionKeys.has(identityKey(s)));
  const superseded = new Set<number>();
  for (const t of torn) if (lines.some((l) => l.raw.length > (t.raw as string).length && l.raw.startsWith(t.raw as string))) superseded.add(t.id);
  if (superseded.size > 0) {
    const del = db.prepare('DELETE FROM transcript_lines WHERE id = ?');
    for (const id of superseded) del.run(id);
  }
  const kept = stored.filter((s) => !superseded.has(s.id));

  type Item = { stored?: StoredLine; index?: number; id: LineIdentity };
  const knownItems: Item[] = kept.map((s) => ({ stored: s, id: { hash: s.hash, dup: s.dup } }));
  const versionItems: Item[] = ids.map((id, index) => ({ index, id }));
  const byKey = new Map(knownItems.map((it) => [identityKey(it.id), it]));
  const order = unionOrder(knownItems, versionItems, (it) => identityKey(it.id));

  const insert = db.prepare(
    `INSERT INTO transcript_lines (session_id, transcript, seq, hash, dup, raw, file, line, torn, bad_utf8, first_seen, gone_since)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
  );
  const reseq = db.prepare('UPDATE transcript_lines SET seq = ? WHERE id = ?');
  const relocate = db.prepare('UPDATE transcript_lines SET file = ?, line = ?, gone_since = NULL WHERE id = ?');
  const markGone = db.prepare('UPDATE transcript_lines SET gone_since = ? WHERE id = ?');
  const lastIndex = lines.length - 1;
  let added = 0;
  let bytes = 0;
  let goneCount = 0;
  // Renumber only from the first place the order differs: a transcript that grew at its end renumbers nothing.
  order.forEach((item, seq) => {
    if (item.stored) {
      if (item.stored.seq !== seq) reseq.run(seq, item.stored.id);
      return;
    }
    const l = lines[item.index as number] as TranscriptLine;
    const isTorn = item.index === lastIndex && l.value === undefined ? 1 : 0;
    insert.run(sessionId, transcript, seq, item.id.hash, item.id.dup, l.raw, l.file, l.line, isTorn, badUtf8.has(`${l.file}:${l.line}`) ? 1 : 0, now);
    added++;
    bytes += Buffer.byteLength(l.raw);
  });
  // Stored lines of this version: where they are now; stored lines not in it: gone from disk.
  ids.forEach((id, index) => {
    const s = byKey.get(identityKey(id))?.stored;
    const l = lines[index] as TranscriptLine;
    if (s && (s.file !== l.file || s.line !== l.line || s.gone_since !== null)) relocate.run(l.file, l.line, s.id);
  });
  for (const s of kept) {
    if (s.gone_since === null && !versionKeys.has(identityKey(s))) {
      markGone.run(now, s.id);
      goneCount++;
    }
  }
  const coverage = new CoverageTracker();
  for (const l of lines) coverage.see(l);
  addCoverage(db, sessionId, transcript, coverage.ranges());
  return { added, gone: goneCount, bytes };
}

/** Join `ranges` into the transcript's stored coverage (kept disjoint: overlapping or touching ranges merge). */
function addCoverage(db: DatabaseSync, sessionId: string, transcript: 'compact' | 'full', ranges: StepRange[]): void {
  // A checked conversion: only whole numbers the INTEGER column and a JavaScript number both hold (the reader
  // refuses others, `step-index.ts`); rows an older snapshot stored out of range are dropped on the way.
  const safe = (r: StepRange): boolean => Number.isSafeInteger(r.from) && Number.isSafeInteger(r.to) && r.from >= 0 && r.from <= r.to;
  if (!ranges.some(safe)) return;
  const rows = db
    .prepare(`SELECT first_index AS "from", last_index AS "to" FROM coverage WHERE session_id = ? AND transcript = ? ${SAFE_RANGE}`)
    .all(sessionId, transcript) as unknown as StepRange[];
  const all = [...rows, ...ranges].filter(safe).sort((a, b) => a.from - b.from);
  const merged: StepRange[] = [];
  for (const r of all) {
    const last = merged[merged.length - 1];
    if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else merged.push({ ...r });
  }
  db.prepare('DELETE FROM coverage WHERE session_id = ? AND transcript = ?').run(sessionId, transcript);
  const insert = db.prepare('INSERT INTO coverage (session_id, transcript, first_index, last_index) VALUES (?, ?, ?, ?)');
  for (const r of merged) insert.run(sessionId, transcript, r.from, r.to);
}

/**
 * Keep a conversation database whose brain folder is gone (issue 29): a session row of its own when the store has
 * none (one it has keeps its folder's files and places), then the database's rows (`conversation.ts`).
 */
async function keepDatabaseOnly(db: DatabaseSync, ref: SessionRef): Promise<void> {
  const now = new Date().toISOString();
  try {
    db.prepare(
      `INSERT INTO sessions (id, product, root, dir, ctime_ms, mtime_ms, first_seen, last_seen, gone_since, version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 1) ON CONFLICT(id) DO UPDATE SET last_seen = excluded.last_seen`,
    ).run(ref.id, ref.product, ref.root, ref.dir, ref.ctimeMs, ref.mtimeMs, now, now);
    await snapshotConversation(db, ref, now);
  } catch (error) {
    const file = db.location();
    const stop = file ? diagnoseStoreFailure(error, file) : asStoreError(error, 'in memory');
    if (stop) throw stop;
  }
}

/**
 * Snapshot one session; when its data makes the snapshot fail (not the store: that throws a `StoreError` and stops
 * the run), the session is left as stored before and the failure is a problem of it. One line of one session
 * (`{"step_index":1e20}`) once stopped a run at that session, leaving the others of the run unstored.
 */
async function snapshotOrProblem(db: DatabaseSync, ref: SessionRef): Promise<SessionSnapshot> {
  try {
    const snapshot = await snapshotSession(db, ref);
    // Its conversation database, when one is beside the brain folder (conversation.ts): read again only when it
    // changed. What could not be read of it is said by the reader of the live database, not kept here.
    await snapshotConversation(db, ref, new Date().toISOString());
    return snapshot;
  } catch (error) {
    const file = db.location();
    const stop = file ? diagnoseStoreFailure(error, file) : asStoreError(error, 'in memory');
    if (stop) throw stop;
    const problem: Problem = {
      kind: 'unreadable',
      sessionId: ref.id,
      file: '.',
      message: `This snapshot of the session failed (${String(error instanceof Error ? error.message : error)}); the store keeps what it held before, and the next snapshot tries again.`,
    };
    recordFailure(db, ref, problem);
    return { id: ref.id, status: 'failed', filesRead: 0, linesAdded: 0, linesGone: 0, versionsAdded: 0, filesGone: 0, bytesAdded: 0, problems: [problem] };
  }
}

/** Keep a failed snapshot's problem with the session (when the store holds it), so the site's report lists it. */
function recordFailure(db: DatabaseSync, ref: SessionRef, problem: Problem): void {
  try {
    if (!db.prepare('SELECT 1 AS x FROM sessions WHERE id = ?').get(ref.id)) return;
    db.prepare('DELETE FROM problems WHERE session_id = ? AND kind = ? AND file = ? AND message = ?').run(ref.id, problem.kind, problem.file, problem.message);
    db.prepare('INSERT INTO problems (session_id, kind, file, line, message, seen_at) VALUES (?, ?, ?, NULL, ?, ?)').run(
      ref.id,
      problem.kind,
      problem.file,
      problem.message,
      new Date().toISOString(),
    );
  } catch (error) {
    const stop = asStoreError(error, db.location() ?? 'in memory');
    if (stop) throw stop;
  }
}

/**
 * Snapshot every discovered session, then mark stored sessions whose folder is gone: only those whose brain root
 * was scanned this time (a run with other BRAIN_ROOTS must not call the rest deleted). `onSession` hears each one.
 */
export async function snapshotAll(
  db: DatabaseSync,
  discovery: Discovery,
  onSession: (s: SessionSnapshot) => void = () => undefined,
): Promise<SnapshotSummary> {
  const started = Date.now();
  // Several sessions are listed and read at once; their writes cannot interleave, since each transaction runs
  // from BEGIN to COMMIT without yielding (node:sqlite is synchronous).
  // A conversation database without its brain folder has no folder to snapshot: its rows alone are kept (below).
  const folders = discovery.sessions.filter((r) => !r.noFolder);
  const sessions: SessionSnapshot[] = new Array(folders.length);
  const limit = pLimit(SNAPSHOT_CONCURRENCY);
  await Promise.all(
    folders.map((ref, i) =>
      limit(async () => {
        const s = await snapshotOrProblem(db, ref);
        sessions[i] = s;
        onSession(s);
      }),
    ),
  );
  const unchanged = sessions.filter((s) => s.status === 'unchanged').map((s) => s.id);
  if (unchanged.length > 0) {
    const seenAt = new Date().toISOString();
    db.exec('BEGIN IMMEDIATE');
    try {
      const touch = db.prepare('UPDATE sessions SET last_seen = ? WHERE id = ?');
      for (const id of unchanged) touch.run(seenAt, id);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
  const dbOnly = discovery.sessions.filter((r) => r.noFolder);
  for (const ref of dbOnly) await keepDatabaseOnly(db, ref);
  // A session whose database is still on disk is not gone, folder or not.
  const present = new Set([...discovery.sessions.map((r) => r.id), ...discovery.shadowed.map((s) => s.id)]);
  const now = new Date().toISOString();
  const goneNow: string[] = [];
  const candidates = db.prepare('SELECT id, root, dir FROM sessions WHERE gone_since IS NULL').all() as Array<{ id: string; root: string; dir: string }>;
  const toMark: string[] = [];
  for (const c of candidates) {
    if (present.has(c.id) || !searchedRoot(discovery, c.root)) continue;
    // Gone from the listing: make sure the folder is really gone. Only ENOENT says so: a folder that cannot be
    // stat-ed (EACCES, an unmounted disk answering EIO) may well be there.
    if ((await fs.stat(c.dir).then(() => 'there', (error: NodeJS.ErrnoException) => error.code)) !== 'ENOENT') continue;
    toMark.push(c.id);
  }
  if (toMark.length > 0) {
    db.exec('BEGIN IMMEDIATE');
    try {
      const mark = db.prepare('UPDATE sessions SET gone_since = ?, version = version + 1 WHERE id = ? AND gone_since IS NULL');
      for (const id of toMark) if (Number(mark.run(now, id).changes) > 0) goneNow.push(id);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
  const goneTotal = Number((db.prepare('SELECT count(*) AS n FROM sessions WHERE gone_since IS NOT NULL').get() as { n: number }).n);
  return { sessions, goneNow, goneTotal, ms: Date.now() - started };
}

/** What the store holds that the disk no longer does, in all. */
export interface StoreTotals {
  sessionsGone: number;
  linesGone: number;
  filesGone: number;
}

/**
 * Counts over the whole store, for the closing line of a run. Only what the line says: counting every transcript
 * line (unsaid) read the whole index, 26 ms of a 20k-step store's run with nothing new, ~5x that at 100k steps.
 */
export function storeTotals(db: DatabaseSync): StoreTotals {
  const one = (sql: string): number => Number((db.prepare(sql).get() as { n: number }).n);
  return {
    sessionsGone: one('SELECT count(*) AS n FROM sessions WHERE gone_since IS NOT NULL'),
    linesGone: one('SELECT count(*) AS n FROM transcript_lines WHERE gone_since IS NOT NULL'),
    filesGone: one('SELECT count(*) AS n FROM files WHERE gone_since IS NOT NULL'),
  };
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** One line per session a run wrote (new, changed, gone), for people. */
export function describeSessions(summary: SnapshotSummary): string[] {
  const out: string[] = [];
  for (const s of summary.sessions) {
    if (s.status === 'unchanged') continue;
    const parts = [`+${plural(s.linesAdded, 'line')}`, `+${plural(s.versionsAdded, 'file version')}`];
    if (s.linesGone > 0) parts.push(`${plural(s.linesGone, 'line')} no longer on disk (kept)`);
    if (s.filesGone > 0) parts.push(`${plural(s.filesGone, 'file')} no longer on disk (kept)`);
    if (s.problems.length > 0) parts.push(`${plural(s.problems.length, 'problem')}`);
    if (s.status === 'failed') {
      out.push(`  ${s.status.padEnd(9)} ${s.id.slice(0, 8)}  ${s.problems[0]?.message ?? 'not stored this time'}`);
      continue;
    }
    out.push(`  ${s.status.padEnd(9)} ${s.id.slice(0, 8)}  ${parts.join(', ')}`);
  }
  for (const id of summary.goneNow) out.push(`  ${'gone'.padEnd(9)} ${id.slice(0, 8)}  folder no longer on disk; kept, marked`);
  return out;
}

/** The closing line of a run: what was kept this time and what the store keeps that the disk lost. */
export function describeRun(summary: SnapshotSummary, totals: StoreTotals): string {
  const count = (status: SessionSnapshot['status']) => summary.sessions.filter((s) => s.status === status).length;
  const added = summary.sessions.reduce((n, s) => n + s.linesAdded, 0);
  const versions = summary.sessions.reduce((n, s) => n + s.versionsAdded, 0);
  return (
    `archive: ${plural(summary.sessions.length, 'session')} on disk (${count('new')} new, ${count('changed')} changed, ` +
    `${count('unchanged')} unchanged${count('failed') > 0 ? `, ${count('failed')} FAILED: see above` : ''}): +${plural(added, 'record')}, +${plural(versions, 'file version')} in ` +
    `${(summary.ms / 1000).toFixed(1)} s. Kept though no longer on disk: ${plural(totals.linesGone, 'record')}, ` +
    `${plural(totals.filesGone, 'file')}, ${plural(totals.sessionsGone, 'session')}.`
  );
}
