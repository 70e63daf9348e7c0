/**
 * Removing a session on purpose, and exporting a copy of the store that is safe to share (redacted with the site's
 * own redactor unless asked otherwise).
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { REDACTOR_VERSION } from '../redact/index.ts';
import { applyHits, scanTexts } from '../redact/scan.ts';
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

/** Every string inside a parsed JSON value, with a setter, so a line can be redacted and written back as JSON. */
function stringsIn(value: unknown, out: Array<{ text: string; set: (v: string) => void }>): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (typeof item === 'string') out.push({ text: item, set: (v) => (value[i] = v) });
      else stringsIn(item, out);
    });
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (typeof item === 'string') out.push({ text: item, set: (v) => (record[key] = v) });
      else stringsIn(item, out);
    }
  }
}

/**
 * A redacted JSONL line: each string of the record redacted and the record written back as JSON (a secret inside
 * an escaped string is found in its decoded text); a line that does not parse is redacted as text.
 */
async function redactLine(raw: string): Promise<string> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return redactTexts([raw]).then(([t]) => t as string);
  }
  const slots: Array<{ text: string; set: (v: string) => void }> = [];
  if (typeof value === 'string') return JSON.stringify((await redactTexts([value]))[0]);
  stringsIn(value, slots);
  const redacted = await redactTexts(slots.map((s) => s.text));
  let changed = false;
  slots.forEach((slot, i) => {
    if (redacted[i] !== slot.text) {
      slot.set(redacted[i] as string);
      changed = true;
    }
  });
  return changed ? JSON.stringify(value) : raw;
}

async function redactTexts(texts: string[]): Promise<string[]> {
  const hits = await scanTexts(texts);
  return texts.map((t, i) => applyHits(t, hits[i] ?? []));
}

/**
 * Write a copy of the store to `file` (never over an existing file): a consistent snapshot (`VACUUM INTO`), then,
 * unless `raw`, every transcript line, text file and problem message redacted by the site's redactor, the blobs
 * re-keyed by their new hash (a hash of the secret-bearing text is not shared either). One file, mode 0600.
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
        const lines = db.prepare('SELECT id, session_id AS session, transcript, raw FROM transcript_lines').all() as Array<{ id: number; session: string; transcript: string; raw: string }>;
        // Two lines that differed only by a secret are the same text once redacted: the next `dup` keeps both.
        const setLine = db.prepare(
          `UPDATE transcript_lines SET raw = ?1, hash = ?2, dup = (SELECT coalesce(max(dup) + 1, 0) FROM transcript_lines
             WHERE session_id = ?3 AND transcript = ?4 AND hash = ?2) WHERE id = ?5`,
        );
        for (const l of lines) {
          const redacted = await redactLine(l.raw);
          if (redacted === l.raw) continue;
          setLine.run(redacted, createHash('sha256').update(redacted).digest('hex'), l.session, l.transcript, l.id);
          textsRedacted++;
        }
        const blobs = db.prepare('SELECT hash, data FROM blobs').all() as Array<{ hash: string; data: Uint8Array }>;
        const rekey = db.prepare('UPDATE file_versions SET blob = ?, size = ? WHERE blob = ?');
        const insertBlob = db.prepare('INSERT INTO blobs (hash, size, data) VALUES (?, ?, ?) ON CONFLICT(hash) DO NOTHING');
        const dropBlob = db.prepare('DELETE FROM blobs WHERE hash = ?');
        for (const b of blobs) {
          const bytes = Buffer.from(b.data);
          // Binary files (images, archives) are shared as the site publishes them: not text, nothing to redact.
          if (bytes.includes(0) || !isUtf8(bytes)) continue;
          const text = bytes.toString('utf8');
          const [redacted] = await redactTexts([text]);
          if (redacted === text) continue;
          const out = Buffer.from(redacted as string, 'utf8');
          const hash = createHash('sha256').update(out).digest('hex');
          insertBlob.run(hash, out.length, out);
          rekey.run(hash, out.length, b.hash);
          dropBlob.run(b.hash);
          textsRedacted++;
        }
        const problems = db.prepare('SELECT rowid AS id, message FROM problems').all() as Array<{ id: number; message: string }>;
        const setProblem = db.prepare('UPDATE problems SET message = ? WHERE rowid = ?');
        for (const p of problems) {
          const [redacted] = await redactTexts([p.message]);
          if (redacted !== p.message) {
            setProblem.run(redacted as string, p.id);
            textsRedacted++;
          }
        }
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
