/**
 * The archive store's copy of each session's conversation database (issue 29 point 4): its steps and model calls
 * as decoded rows (JSON text of `DbStep` / `ModelCall`, so the shareable export's scan redacts them like every
 * text), by id, so a database deleted or rewritten keeps its models, tokens and extra steps. The prompt's text is
 * never stored, only its breakdown. A snapshot reads the database again only when the size or mtime of its `.db`
 * or `-wal` changed.
 */
import { promises as fs } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import type { DbStep } from '../brain/conversation-db/fields.ts';
import { type ConversationDbRead, readConversationDb } from '../brain/conversation-db/read.ts';
import { ProblemBudget } from '../brain/problems.ts';
import type { ConversationDb, ModelCall, Problem, SessionRef } from '../brain/types.ts';

/** Size and mtime of the `.db` and its `-wal`: what a snapshot compares to know whether to read it again. */
async function stampOf(dbPath: string): Promise<string> {
  const parts: string[] = [];
  for (const file of [dbPath, `${dbPath}-wal`]) {
    const st = await fs.stat(file).catch(() => undefined);
    parts.push(st ? `${st.size}:${Math.trunc(st.mtimeMs)}` : '-');
  }
  return parts.join(' ');
}

/**
 * Snapshot the conversation database of `ref` into `db` (the session row must exist): rows are upserted by id in
 * one transaction and the session's version bumped when anything changed. Returns whether it did. What cannot be
 * read of the database is not kept as a problem here: the reader of the live database says it.
 */
export async function snapshotConversation(db: DatabaseSync, ref: SessionRef, now: string): Promise<boolean> {
  if (!ref.conversationDb) return false;
  if (!db.prepare('SELECT 1 AS x FROM sessions WHERE id = ?').get(ref.id)) return false;
  const stamp = await stampOf(ref.conversationDb);
  const known = db.prepare('SELECT stamp FROM conversation_dbs WHERE session_id = ?').get(ref.id) as { stamp: string } | undefined;
  if (known?.stamp === stamp) return false;
  const problems: Problem[] = [];
  const budget = new ProblemBudget(problems, ref.id);
  const read = await readConversationDb(ref.conversationDb, ref.id, budget);
  budget.close();
  if (!read) return false;
  db.exec('BEGIN IMMEDIATE');
  try {
    let changed = 0;
    const get = db.prepare('SELECT data FROM conversation_rows WHERE session_id = ? AND kind = ? AND idx = ?');
    const put = db.prepare(
      `INSERT INTO conversation_rows (session_id, kind, idx, data, first_seen, last_seen) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(session_id, kind, idx) DO UPDATE SET data = excluded.data, last_seen = excluded.last_seen`,
    );
    const touch = db.prepare('UPDATE conversation_rows SET last_seen = ? WHERE session_id = ? AND kind = ? AND idx = ?');
    const upsert = (kind: 'step' | 'call', idx: number, value: unknown) => {
      const data = JSON.stringify(value);
      const row = get.get(ref.id, kind, idx) as { data: string } | undefined;
      if (row?.data === data) touch.run(now, ref.id, kind, idx);
      else {
        put.run(ref.id, kind, idx, data, now, now);
        changed++;
      }
    };
    for (const step of read.steps) upsert('step', step.index, step);
    for (const call of read.db.calls) upsert('call', call.row, call);
    const { calls: _calls, ...facts } = read.db;
    const factsJson = JSON.stringify(facts);
    const before = db.prepare('SELECT facts FROM conversation_dbs WHERE session_id = ?').get(ref.id) as { facts: string } | undefined;
    if (before?.facts !== factsJson) changed++;
    db.prepare(
      `INSERT INTO conversation_dbs (session_id, stamp, facts, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(session_id) DO UPDATE SET stamp = excluded.stamp, facts = excluded.facts, last_seen = excluded.last_seen`,
    ).run(ref.id, stamp, factsJson, now, now);
    if (changed > 0) db.prepare('UPDATE sessions SET version = version + 1 WHERE id = ?').run(ref.id);
    db.exec('COMMIT');
    return changed > 0;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

function hasTable(db: DatabaseSync, name: string): boolean {
  return db.prepare("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** The stored rows of a session's conversation database over every store holding it (the latest seen wins). */
export function storedConversation(dbs: readonly DatabaseSync[], sessionId: string): ConversationDbRead | undefined {
  const steps = new Map<number, { data: string; lastSeen: string }>();
  const calls = new Map<number, { data: string; lastSeen: string }>();
  let facts: { data: string; lastSeen: string } | undefined;
  for (const db of dbs) {
    if (!hasTable(db, 'conversation_dbs')) continue; // a store written before the conversation database was kept
    const f = db.prepare('SELECT facts, last_seen FROM conversation_dbs WHERE session_id = ?').get(sessionId) as { facts: string; last_seen: string } | undefined;
    if (f && (!facts || f.last_seen > facts.lastSeen)) facts = { data: f.facts, lastSeen: f.last_seen };
    for (const r of db.prepare('SELECT kind, idx, data, last_seen FROM conversation_rows WHERE session_id = ?').all(sessionId) as Array<{ kind: string; idx: number; data: string; last_seen: string }>) {
      const into = r.kind === 'step' ? steps : calls;
      const had = into.get(r.idx);
      if (!had || r.last_seen > had.lastSeen) into.set(r.idx, { data: r.data, lastSeen: r.last_seen });
    }
  }
  if (!facts) return undefined;
  const byIdx = <T>(m: Map<number, { data: string }>): T[] => [...m].sort(([a], [b]) => a - b).map(([, v]) => JSON.parse(v.data) as T);
  const db: ConversationDb = { ...(JSON.parse(facts.data) as Omit<ConversationDb, 'calls'>), calls: byIdx<ModelCall>(calls) };
  return { db, steps: byIdx<DbStep>(steps) };
}
