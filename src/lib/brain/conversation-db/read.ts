/**
 * Reading one conversation database (`<product>/conversations/<uuid>.db`) into plain data: its steps and its model
 * calls, decoded by `fields.ts`. Strictly read-only toward the user's folder: SQLite opens a private copy (copy.ts).
 * Never throws for bad data: a file that cannot be read, an unknown schema or a malformed blob is a problem with
 * the file and why, and the rest is read.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import type { ProblemBudget } from '../problems.ts';
import type { ConversationDb, ModelCall, PromptBreakdown } from '../types.ts';
import { CopyRefused, copyConversationDb } from './copy.ts';
import { type DbStep, decodeCall, decodePrompt, decodeStep, STATUSES, STEP_TYPES } from './fields.ts';

/**
 * The schema of every real database seen (real-db README §2, all eight files: `user_version` 1). A database with
 * another schema is still read where it has the tables and columns below, and its fingerprint is named on /report/.
 */
export const KNOWN_SCHEMA = '58603bce99547c2b';

/** What is read: table → columns. */
const NEEDED: Readonly<Record<string, readonly string[]>> = {
  steps: ['idx', 'step_type', 'status', 'metadata', 'step_payload'],
  gen_metadata: ['idx', 'data'],
};

/** The conversation database as read, with its steps (for the join) and the problems found. */
export interface ConversationDbRead {
  db: ConversationDb;
  steps: DbStep[];
}

/** The path a problem names: relative to the product folder, as the README and /report/ show it. */
export function conversationDbFile(sessionId: string): string {
  return `conversations/${sessionId}.db`;
}

/**
 * Read `dbPath` (absolute). Problems go to `budget` (bounded per kind). `undefined` when the file could not be
 * read at all (the problem says why) or is absent.
 */
export async function readConversationDb(dbPath: string, sessionId: string, budget: ProblemBudget): Promise<ConversationDbRead | undefined> {
  const file = conversationDbFile(sessionId);
  const problem = (message: string, kind: 'unreadable' | 'bad-record' | 'notice' = 'unreadable') =>
    budget.add({ kind, sessionId, file, message });
  let copy;
  try {
    copy = await copyConversationDb(dbPath);
  } catch (error) {
    problem(`The conversation database was not read: ${error instanceof CopyRefused ? error.message : String(error)}.`);
    return undefined;
  }
  if (!copy) return undefined;
  try {
    if (copy.unsettled) problem('The conversation database changed on every copy while it was read (Antigravity writing to it); the last copy is shown.', 'notice');
    // SQLite removes -wal and -shm together when the last connection closes; a -shm alone says the database was
    // open in WAL mode and its write-ahead log, where the newest rows live, is missing (real d090e946: its last
    // steps still GENERATING and PENDING, a copy made without the -wal). The rows shown may stop short.
    if (!copy.withWal && (await fs.stat(`${dbPath}-shm`).then((st) => st.isFile(), () => false))) {
      budget.add({
        kind: 'unreadable',
        sessionId,
        file: `${file}-wal`,
        message:
          'The write-ahead log is missing: a -shm is beside the database but no -wal, so the database was open and its newest rows (steps, model calls, tokens) lived in a log that is not here. What the database adds may stop short of the conversation\'s end.',
      });
    }
    return readCopy(copy.db, copy.withWal, file, problem);
  } finally {
    await copy.dispose();
  }
}

function readCopy(
  copyPath: string,
  withWal: boolean,
  file: string,
  problem: (message: string, kind?: 'unreadable' | 'bad-record' | 'notice') => void,
): ConversationDbRead | undefined {
  let sqlite: DatabaseSync | undefined;
  try {
    sqlite = new DatabaseSync(copyPath);
    const master = sqlite.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all();
    if (master.length === 0) {
      problem('The conversation database holds no tables (an empty or zero-byte file); nothing was read from it.');
      return undefined;
    }
    const schema = createHash('sha256')
      .update(JSON.stringify(master.map((r) => [r.type, r.name, r.tbl_name, r.sql])))
      .digest('hex')
      .slice(0, 16);
    const missing: string[] = [];
    for (const [table, columns] of Object.entries(NEEDED)) {
      const have = new Set(sqlite.prepare(`PRAGMA table_info(${table})`).all().map((c) => String(c.name)));
      for (const c of columns) if (!have.has(c)) missing.push(`${table}.${c}`);
    }
    if (missing.length > 0) {
      problem(`The conversation database has an unknown schema (fingerprint ${schema}) without ${missing.join(', ')}; nothing was read from it.`);
      return undefined;
    }
    if (schema !== KNOWN_SCHEMA)
      problem(`The conversation database has an unknown schema (fingerprint ${schema}, known: ${KNOWN_SCHEMA}); the columns it shares with the known one were read.`, 'notice');

    const steps: DbStep[] = [];
    const unknownTypes = new Map<number, number[]>();
    const unknownStatuses = new Map<number, number[]>();
    let stepRows = 0;
    for (const row of sqlite.prepare('SELECT idx, step_type, status, metadata, step_payload FROM steps ORDER BY idx').iterate()) {
      stepRows++;
      const idx = Number(row.idx);
      const typeCode = Number(row.step_type);
      const status = Number(row.status);
      if (!(typeCode in STEP_TYPES)) pushTo(unknownTypes, typeCode, idx);
      if (!(status in STATUSES)) pushTo(unknownStatuses, status, idx);
      try {
        steps.push(
          decodeStep({ idx, step_type: typeCode, status, metadata: blob(row.metadata), step_payload: blob(row.step_payload) }),
        );
      } catch (error) {
        problem(`Step ${idx}: its step_payload is not a protobuf message (${(error as Error).message}); the step is left out.`, 'bad-record');
      }
    }
    for (const [code, idxs] of unknownTypes)
      problem(`Step type ${code} is not known to this archive (step${idxs.length === 1 ? '' : 's'} ${listed(idxs)}); shown as STEP_TYPE_${code}.`, 'notice');
    for (const [code, idxs] of unknownStatuses)
      problem(`Status ${code} is not known to this archive (step${idxs.length === 1 ? '' : 's'} ${listed(idxs)}); shown as STATUS_${code}.`, 'notice');

    const calls: ModelCall[] = [];
    let prompt: PromptBreakdown | undefined;
    for (const row of sqlite.prepare('SELECT idx, data FROM gen_metadata ORDER BY idx').iterate()) {
      const idx = Number(row.idx);
      const data = blob(row.data);
      if (!data) continue;
      try {
        calls.push(decodeCall({ idx, data }));
        prompt = decodePrompt(data) ?? prompt;
      } catch (error) {
        problem(`Model call row ${idx}: its data is not a protobuf message (${(error as Error).message}); the call is left out.`, 'bad-record');
      }
    }
    const db: ConversationDb = { file, withWal, schema, stepRows, calls };
    if (prompt) db.prompt = prompt;
    return { db, steps };
  } catch (error) {
    problem(`The conversation database could not be read: ${(error as Error).message}.`);
    return undefined;
  } finally {
    sqlite?.close();
  }
}

function blob(value: unknown): Uint8Array | null {
  return value instanceof Uint8Array ? value : null;
}

function pushTo(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** `3, 5, 9` or `3, 5, 9, … (12 in all)`. */
function listed(idxs: number[]): string {
  return idxs.length <= 10 ? idxs.join(', ') : `${idxs.slice(0, 10).join(', ')}, … (${idxs.length} in all)`;
}

/**
 * The stored rows and the database on disk as one: rows by id, what is on disk now wins; rows only the store kept
 * (the database deleted, or rewritten without them) stay.
 */
export function withStoredRows(live: ConversationDbRead | undefined, stored: ConversationDbRead | undefined): ConversationDbRead | undefined {
  if (!stored) return live;
  if (!live) return stored;
  const steps = new Map(stored.steps.map((s) => [s.index, s]));
  for (const s of live.steps) steps.set(s.index, s);
  const calls = new Map(stored.db.calls.map((c) => [c.row, c]));
  for (const c of live.db.calls) calls.set(c.row, c);
  return {
    db: { ...live.db, calls: [...calls].sort(([a], [b]) => a - b).map(([, c]) => c) },
    steps: [...steps].sort(([a], [b]) => a - b).map(([, s]) => s),
  };
}
