/**
 * Removing a session on purpose, and exporting a copy of the store that is safe to share (redacted with the site's
 * own redactor unless asked otherwise).
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { REDACTOR_VERSION } from '../redact/index.ts';
import { type FileText, type Hit, applyHits, fileText, mergeHits, redactedFileBytes, scanSessionTexts } from '../redact/stored.ts';
import { StoreError, openStore } from './schema.ts';

/** A stored session as `--forget` names it. */
export interface ForgetCandidate {
  id: string;
  product: string;
  firstSeen: string;
  lastSeen: string;
  goneSince: string | null;
  lines: number;
  versions: number;
}

/** Stored sessions whose id is `prefix` or starts with it (case-insensitive). */
export function forgetCandidates(db: DatabaseSync, prefix: string): ForgetCandidate[] {
  const p = prefix.trim().toLowerCase();
  if (p === '') return [];
  const rows = db
    .prepare(
      `SELECT s.id, s.product, s.first_seen AS firstSeen, s.last_seen AS lastSeen, s.gone_since AS goneSince,
         (SELECT count(*) FROM transcript_lines t WHERE t.session_id = s.id) AS lines,
         (SELECT count(*) FROM file_versions v WHERE v.session_id = s.id) AS versions
       FROM sessions s WHERE s.id = ? OR substr(s.id, 1, ?) = ? ORDER BY s.id`,
    )
    .all(p, p.length, p) as unknown as ForgetCandidate[];
  const exact = rows.filter((r) => r.id === p);
  return exact.length > 0 ? exact : rows;
}

/**
 * Remove one session and every byte stored for it (blobs no other session uses), in one transaction, with
 * `secure_delete` so the freed pages are zeroed, then checkpoint the WAL so the old pages leave it too.
 */
export function forgetSession(db: DatabaseSync, id: string): void {
  db.exec('PRAGMA secure_delete = ON');
  db.exec('BEGIN IMMEDIATE');
  try {
    const blobs = db.prepare('SELECT DISTINCT blob FROM file_versions WHERE session_id = ?').all(id) as Array<{ blob: string }>;
    db.prepare('DELETE FROM sessions WHERE id = ?').run(id); // the other tables follow (ON DELETE CASCADE)
    const orphan = db.prepare('DELETE FROM blobs WHERE hash = ? AND NOT EXISTS (SELECT 1 FROM file_versions WHERE blob = ?)');
    for (const { blob } of blobs) orphan.run(blob, blob);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
}

/** What an export wrote. */
export interface ExportSummary {
  file: string;
  redacted: boolean;
  sessions: number;
  /** Texts (lines, files, problem messages) in which at least one secret was replaced. */
  textsRedacted: number;
}

/**
 * Write a copy of the store to `file` (never over an existing file): a consistent snapshot (`VACUUM INTO`), then,
 * unless `raw`, every transcript line, text file and problem message redacted by the site's redactor, session by
 * session (`redactStoredSessions`), the blobs re-keyed by their new hash (a hash of the secret-bearing text is not
 * shared either). One file, mode 0600.
 */
export async function exportStore(source: DatabaseSync, file: string, options: { raw?: boolean } = {}): Promise<ExportSummary> {
  if (existsSync(file)) {
    throw new StoreError(`${file} already exists; an export never overwrites a file.`, 'Give another file name, or remove that file first.');
  }
  source.prepare('VACUUM INTO ?').run(file);
  chmodSync(file, 0o600);
  const db = openStore(file);
  try {
    db.exec('PRAGMA journal_mode = DELETE');
    let textsRedacted = 0;
    if (!options.raw) {
      db.exec('PRAGMA secure_delete = ON');
      db.exec('BEGIN IMMEDIATE');
      try {
        textsRedacted = await redactStoredSessions(db);
        db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('redacted_with', ?)").run(REDACTOR_VERSION);
        db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('exported_at', ?)").run(new Date().toISOString());
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
      db.exec('VACUUM'); // the secret-bearing pages are not left in the free list either
    } else {
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('redacted_with', 'none (exported raw)')").run();
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('exported_at', ?)").run(new Date().toISOString());
    }
    const sessions = Number((db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n);
    return { file, redacted: !options.raw, sessions, textsRedacted };
  } finally {
    db.close();
  }
}

/**
 * Redacts every session of the copy with the site's scan: all texts of a session (its transcript lines as read,
 * every version of every text file, its problem messages) in one scan, so a secret identified in one place (by its
 * name in one step, whole in the full transcript) is removed from every other, as on the site. Text files with odd
 * bytes are redacted too (`fileText`); only files binary by content are left as they are. A blob that several
 * sessions share loses what any of them finds in it. Returns how many texts changed.
 */
async function redactStoredSessions(db: DatabaseSync): Promise<number> {
  let changed = 0;
  const sessions = db.prepare('SELECT id FROM sessions ORDER BY id').all() as Array<{ id: string }>;
  const linesOf = db.prepare('SELECT id, transcript, raw FROM transcript_lines WHERE session_id = ? ORDER BY id');
  const blobsOf = db.prepare('SELECT DISTINCT blob FROM file_versions WHERE session_id = ? ORDER BY blob');
  const blobData = db.prepare('SELECT data FROM blobs WHERE hash = ?');
  const problemsOf = db.prepare('SELECT rowid AS id, message FROM problems WHERE session_id = ? ORDER BY rowid');
  // The conversation database's decoded rows (JSON text, store/conversation.ts): scanned as JSON like transcript lines.
  const rowsOf = db.prepare('SELECT rowid AS id, data FROM conversation_rows WHERE session_id = ? ORDER BY rowid');
  const setRow = db.prepare('UPDATE conversation_rows SET data = ? WHERE rowid = ?');
  // Two lines that differed only by a secret are the same text once redacted: the next `dup` keeps both.
  const setLine = db.prepare(
    `UPDATE transcript_lines SET raw = ?1, hash = ?2, dup = (SELECT coalesce(max(dup) + 1, 0) FROM transcript_lines
       WHERE session_id = ?3 AND transcript = ?4 AND hash = ?2) WHERE id = ?5`,
  );
  const setProblem = db.prepare('UPDATE problems SET message = ? WHERE rowid = ?');
  /** Hits per blob, gathered over every session that holds it; applied once all sessions are scanned. */
  const blobHits = new Map<string, Hit[]>();

  for (const { id } of sessions) {
    const lines = linesOf.all(id) as Array<{ id: number; transcript: string; raw: string }>;
    const files: Array<{ hash: string; file: FileText }> = [];
    for (const { blob } of blobsOf.all(id) as Array<{ blob: string }>) {
      const row = blobData.get(blob) as { data: Uint8Array } | undefined;
      const file = row ? fileText(row.data) : undefined;
      if (file) files.push({ hash: blob, file });
    }
    const problems = problemsOf.all(id) as Array<{ id: number; message: string }>;
    const rows = rowsOf.all(id) as Array<{ id: number; data: string }>;
    const hits = await scanSessionTexts([
      ...lines.map((l) => ({ text: l.raw, json: true })),
      ...files.map((f) => ({ text: f.file.text })),
      ...problems.map((p) => ({ text: p.message })),
      ...rows.map((r) => ({ text: r.data, json: true })),
    ]);
    rows.forEach((r, i) => {
      const found = hits[lines.length + files.length + problems.length + i]!;
      if (found.length === 0) return;
      setRow.run(applyHits(r.data, found), r.id);
      changed++;
    });
    lines.forEach((l, i) => {
      const found = hits[i]!;
      if (found.length === 0) return;
      const redacted = applyHits(l.raw, found);
      setLine.run(redacted, createHash('sha256').update(redacted).digest('hex'), id, l.transcript, l.id);
      changed++;
    });
    files.forEach((f, i) => {
      const found = hits[lines.length + i]!;
      if (found.length > 0) blobHits.set(f.hash, [...(blobHits.get(f.hash) ?? []), ...found]);
    });
    problems.forEach((p, i) => {
      const found = hits[lines.length + files.length + i]!;
      if (found.length === 0) return;
      setProblem.run(applyHits(p.message, found), p.id);
      changed++;
    });
  }

  // Two versions of a file that differed only by a secret are one version once redacted: one row stays.
  const rekey = db.prepare('UPDATE OR REPLACE file_versions SET blob = ?, size = ? WHERE blob = ?');
  const insertBlob = db.prepare('INSERT INTO blobs (hash, size, data) VALUES (?, ?, ?) ON CONFLICT(hash) DO NOTHING');
  const dropBlob = db.prepare('DELETE FROM blobs WHERE hash = ?');
  for (const [hash, found] of blobHits) {
    const row = blobData.get(hash) as { data: Uint8Array };
    const out = redactedFileBytes(fileText(row.data)!, mergeHits(found));
    const newHash = createHash('sha256').update(out).digest('hex');
    insertBlob.run(newHash, out.length, out);
    rekey.run(newHash, out.length, hash);
    dropBlob.run(hash);
    changed++;
  }
  return changed;
}
