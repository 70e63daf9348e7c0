/**
 * The conversation database as a source of its own (issue 29): read-only, with its WAL, joined to the transcripts,
 * and bad input as problems. Fixtures are written by the tests in the real schema; the real databases of
 * `../shared/real-db/` are read in place (skipped when absent).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSessions, readSession, type Session } from '../../src/lib/brain/index.ts';
import { redactSession } from '../../src/lib/redact/index.ts';
import { encode, stepRow } from '../../scripts/lib/conversation-db-writer.ts';
import { SESSION, writeFixtureHome } from './conversation-db-fixture.ts';
import { projectRoot } from './helpers.ts';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'agy-db-test-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

async function readOnly(h = home): Promise<Session> {
  const d = await discoverSessions({ geminiHome: h });
  expect(d.sessions.map((s) => s.id)).toEqual([SESSION]);
  return readSession(d.sessions[0]!);
}

const dbProblems = (s: Session) => s.problems.filter((p) => p.file.startsWith('conversations/')).map((p) => `${p.kind}: ${p.message}`);

describe('one session from its transcripts and its database', () => {
  it('joins a step of both, and shows a step only in the database as a step of its own', async () => {
    writeFixtureHome(home);
    const s = await readOnly();
    expect(s.steps.map((st) => `${st.key} ${st.type} ${st.origin}`)).toEqual([
      '0 USER_INPUT full',
      '1 PLANNER_RESPONSE full',
      '2 RUN_COMMAND full',
      '3 CHECKPOINT db',
      '4 PLANNER_RESPONSE db',
    ]);
    const [request, reply, command, checkpoint, dbReply] = s.steps;
    // The transcript's text stands; the database adds times, status history and the model call.
    expect(reply!.content).toBe('I will list them.');
    expect(reply!.db).toMatchObject({ status: 'DONE', callRow: 0, createdAt: '2026-06-18T13:31:58.500Z' });
    expect(reply!.db!.statusHistory.map((h) => h.status)).toEqual(['GENERATING', 'DONE']);
    // A command the transcript wrote while it ran: the database's final status and fuller output.
    expect(command!.status).toBe('DONE');
    expect(command!.db!.statusHistory.map((h) => h.status)).toEqual(['PENDING', 'WAITING', 'RUNNING', 'DONE']);
    expect(command!.db!.fullerText).toBe('a.txt\nb.txt\n');
    expect(request!.db!.fullerText).toBeUndefined();
    expect(checkpoint!.content).toContain('Listing files');
    expect(dbReply).toMatchObject({ content: 'There are two files.', thinking: 'count them', source: 'MODEL', sources: [] });
    expect(s.steps.map((st) => st.position)).toEqual([0, 1, 2, 3, 4]);
    expect(dbProblems(s)).toEqual([
      'notice: 2 steps are in the conversation database and in no transcript (steps 3–4); shown from the database.',
    ]);
  });

  it('reads every model call exactly, and the last prompt as numbers only', async () => {
    writeFixtureHome(home);
    const s = await readOnly();
    const calls = s.conversation!.calls;
    expect(calls.map((c) => [c.row, c.hasUsage, c.input, c.cacheRead, c.output, c.thinking, c.visible, c.modelName ?? '', c.modelId ?? ''])).toEqual([
      [0, true, 18937, 0, 288, 223, 65, 'Gemini 3.5 Flash (Medium)', 'gemini-3-flash-a'],
      [1, true, 578, 24514, 140, 100, 40, 'Gemini 3.5 Flash (Medium)', 'gemini-3-flash-a'],
      [2, false, 0, 0, 0, 0, 0, 'Gemini 3.5 Flash (Medium)', ''],
    ]);
    expect(calls[0]).toMatchObject({ stepIndices: [1, 2], timeToFirstTokenMs: 2800, streamingMs: 290, requestAt: '2026-06-18T13:31:58.500Z' });
    expect(calls[2]!.errors).toEqual(['request failed: network']);
    expect(s.conversation!.prompt).toEqual({
      totalTokens: 59070,
      sections: [
        { section: 'System Prompt', tokens: 12064 },
        { section: 'Tools', tokens: 15959 },
        { section: 'Chat Messages', tokens: 31047 },
      ],
      tools: 3,
      messages: 1,
      systemPromptChars: 'SYSTEM PROMPT TEXT'.length,
    });
    expect(JSON.stringify(s)).not.toContain('the secret prompt text');
    expect(JSON.stringify(s)).not.toContain('SYSTEM PROMPT TEXT');
  });

  it('a database whose brain folder is gone is still a session, read from the database alone', async () => {
    writeFixtureHome(home, { withFolder: false });
    const s = await readOnly();
    expect(s.steps.map((st) => `${st.key} ${st.type} ${st.origin}`)).toEqual([
      '0 USER_INPUT db',
      '1 PLANNER_RESPONSE db',
      '2 RUN_COMMAND db',
      '3 CHECKPOINT db',
      '4 PLANNER_RESPONSE db',
    ]);
    expect(s.meta.title).toBe('list the files');
    expect(s.steps[1]!.toolCalls).toEqual([{ name: 'run_command', args: { CommandLine: 'ls' }, truncatedArgs: [] }]);
    expect(s.steps[2]!.content).toBe('a.txt\nb.txt\n');
    expect(s.problems.filter((p) => p.kind === 'unreadable')).toEqual([]);
  });

  it('without a request, the title the product folder keeps: the summaries (IDE), else history.jsonl (CLI)', async () => {
    const { dbPath } = writeFixtureHome(home, { withFolder: false });
    const db = new DatabaseSync(dbPath);
    db.exec('DELETE FROM steps WHERE idx = 0');
    db.close();
    expect((await readOnly()).meta.title).toBe(SESSION);
    const product = path.join(home, 'antigravity');
    writeFileSync(path.join(product, 'history.jsonl'), `${JSON.stringify({ display: 'hello', timestamp: 1, workspace: 'C:\\w' })}\n{torn\n${JSON.stringify({ display: 'list the files\nplease', timestamp: 2, conversationId: SESSION })}\n`);
    expect((await readOnly()).meta.title).toBe('list the files');
    writeFileSync(path.join(product, 'agyhub_summaries_proto.pb'), encode([[1, [[1, '00000000-0000-4000-8000-000000000001'], [2, [[1, 'Another']]]]], [1, [[1, SESSION], [2, [[1, 'Listing workspace files'], [2, 5]]]]]]));
    expect((await readOnly()).meta.title).toBe('Listing workspace files');
  });

  it('a type the transcript gives another step of the same index is a conflict on /report/, both steps kept', async () => {
    writeFixtureHome(home);
    const dbPath = path.join(home, 'antigravity', 'conversations', `${SESSION}.db`);
    const db = new DatabaseSync(dbPath);
    const { payload, metadata } = stepRow({ idx: 2, type: 8, status: 7, source: 2, created: '2026-06-18T13:32:02Z' });
    db.prepare('UPDATE steps SET step_type = 8, status = 7, step_payload = ?, metadata = ? WHERE idx = 2').run(payload, metadata);
    db.prepare('INSERT INTO steps (idx, step_type, status, step_payload) VALUES (7, 250, 42, ?)').run(stepRow({ idx: 7, type: 250, status: 42, source: 2, created: '2026-06-18T13:33:00Z' }).payload);
    db.close();
    const s = await readOnly();
    expect(s.steps.map((st) => `${st.key} ${st.type} ${st.status}`)).toEqual([
      '0 USER_INPUT DONE',
      '1 PLANNER_RESPONSE DONE',
      '2 RUN_COMMAND RUNNING',
      '2-db VIEW_FILE ERROR',
      '3 CHECKPOINT DONE',
      '4 PLANNER_RESPONSE DONE',
      '7 STEP_TYPE_250 STATUS_42',
    ]);
    const messages = dbProblems(s).join('\n');
    expect(messages).toContain('step 2: the transcript has a RUN_COMMAND step, the database a VIEW_FILE step (both shown)');
    expect(messages).toContain('Step type 250 is not known to this archive (step 7); shown as STEP_TYPE_250.');
    expect(messages).toContain('Status 42 is not known to this archive (step 7); shown as STATUS_42.');
  });
});

/** Every byte and mtime of the files of a conversation database (absent files as `absent`). */
function fileStates(dbPath: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
    if (!existsSync(f)) {
      out[path.basename(f)] = 'absent';
      continue;
    }
    const st = statSync(f);
    out[path.basename(f)] = `${st.size} ${st.mtimeMs} ${readFileSync(f).toString('base64')}`;
  }
  return out;
}

describe('read-only: nothing in the user folder is created, changed, checkpointed or locked', () => {
  it('reads committed rows from the WAL while another connection holds a write transaction, changing no byte or mtime', async () => {
    const { dbPath } = writeFixtureHome(home);
    // Antigravity's side: a connection that keeps the WAL (no checkpoint), commits one more step, then holds an
    // open write transaction with a step not yet committed.
    const writer = new DatabaseSync(dbPath);
    try {
      writer.exec('PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;');
      const insert = writer.prepare('INSERT INTO steps (idx, step_type, status, metadata, step_payload) VALUES (?, ?, ?, ?, ?)');
      const committed = stepRow({ idx: 5, type: 17, status: 3, source: 5, created: '2026-06-18T13:33:00Z', body: [24, [[3, [[1, 'There was a network issue'], [2, 'request failed']]]]] });
      insert.run(5, 17, 3, committed.metadata, committed.payload);
      writer.exec('BEGIN IMMEDIATE');
      const pending = stepRow({ idx: 6, type: 15, status: 8, source: 2, created: '2026-06-18T13:33:01Z' });
      insert.run(6, 15, 8, pending.metadata, pending.payload);
      expect(statSync(`${dbPath}-wal`).size).toBeGreaterThan(0);

      const before = fileStates(dbPath);
      expect(before[`${SESSION}.db-shm`]).not.toBe('absent');
      const s = await readOnly();
      expect(fileStates(dbPath)).toEqual(before);
      // The committed step (only in the WAL) is read; the uncommitted one is not.
      expect(s.steps.map((st) => st.key)).toEqual(['0', '1', '2', '3', '4', '5']);
      expect(s.steps[5]).toMatchObject({ type: 'ERROR_MESSAGE', content: 'There was a network issue\nrequest failed', origin: 'db' });
      expect(s.conversation!.withWal).toBe(true);
      // Nothing locked: the writer still commits.
      writer.exec('COMMIT');
    } finally {
      writer.close();
    }
  });

  it('never creates a -wal or -shm beside a database that has none', async () => {
    const { dbPath } = writeFixtureHome(home);
    expect(existsSync(`${dbPath}-wal`)).toBe(false);
    const before = fileStates(dbPath);
    expect(before[`${SESSION}.db-shm`]).toBe('absent');
    await readOnly();
    expect(fileStates(dbPath)).toEqual(before);
  });
});

describe('bad input: a problem with the file and why; the rest of the session unaffected', () => {
  const transcriptKeys = ['0', '1', '2'];
  const check = async (why: RegExp) => {
    const s = await readOnly();
    expect(s.steps.map((st) => st.key)).toEqual(transcriptKeys);
    const problems = s.problems.filter((p) => p.file === `conversations/${SESSION}.db`);
    expect(problems.map((p) => p.message).join('\n')).toMatch(why);
    return s;
  };

  it('a zero-byte database', async () => {
    const { dbPath } = writeFixtureHome(home);
    writeFileSync(dbPath, '');
    await check(/holds no tables \(an empty or zero-byte file\)/);
  });

  it('a corrupt database (not SQLite)', async () => {
    const { dbPath } = writeFixtureHome(home);
    writeFileSync(dbPath, Buffer.alloc(8192, 0x5a));
    await check(/could not be read: file is not a database/);
  });

  it('a truncated database', async () => {
    const { dbPath } = writeFixtureHome(home);
    truncateSync(dbPath, 4096 + 100);
    const s = await readOnly();
    expect(s.steps.slice(0, 3).map((st) => st.key)).toEqual(transcriptKeys);
    expect(dbProblems(s).join('\n')).toMatch(/malformed|could not be read|no tables/);
  });

  it('a FIFO in place of the database does not hang the read', async () => {
    const { dbPath } = writeFixtureHome(home);
    rmSync(dbPath);
    execFileSync('mkfifo', [dbPath]);
    await check(/not a regular file \(a FIFO\)/);
  });

  it('a -shm without its -wal: the newest rows may be missing, and the report says so', async () => {
    const { dbPath } = writeFixtureHome(home);
    writeFileSync(`${dbPath}-shm`, Buffer.alloc(32768));
    const s = await readOnly();
    expect(s.steps.slice(0, 3).map((st) => st.key)).toEqual(transcriptKeys);
    const missing = s.problems.filter((p) => p.file === `conversations/${SESSION}.db-wal`);
    expect(missing.map((p) => p.kind)).toEqual(['unreadable']);
    expect(missing[0]?.message).toMatch(/write-ahead log is missing/);
  });

  it('a -wal without its .db', async () => {
    const { dbPath } = writeFixtureHome(home);
    rmSync(dbPath);
    writeFileSync(`${dbPath}-wal`, Buffer.alloc(100));
    const d = await discoverSessions({ geminiHome: home });
    expect(d.problems.map((p) => `${p.kind} ${p.file}`)).toEqual([`unreadable conversations/${SESSION}.db-wal`]);
    const s = await readSession(d.sessions[0]!);
    expect(s.steps.map((st) => st.key)).toEqual(transcriptKeys);
  });

  it('an unknown schema is fingerprinted; without the tables it needs nothing is read', async () => {
    const { dbPath } = writeFixtureHome(home);
    rmSync(dbPath);
    const db = new DatabaseSync(dbPath);
    db.exec('CREATE TABLE steps (idx integer, kind text)');
    db.close();
    await check(/unknown schema \(fingerprint [0-9a-f]{16}\) without steps\.step_type, steps\.status, steps\.metadata, steps\.step_payload, gen_metadata\.idx, gen_metadata\.data/);
  });

  it('an extra column is another schema, read where it shares the known columns', async () => {
    const { dbPath } = writeFixtureHome(home);
    const db = new DatabaseSync(dbPath);
    db.exec('ALTER TABLE steps ADD COLUMN extra text');
    db.close();
    const s = await readOnly();
    expect(s.steps).toHaveLength(5);
    expect(dbProblems(s).join('\n')).toMatch(/unknown schema \(fingerprint [0-9a-f]{16}, known: 58603bce99547c2b\); the columns it shares/);
  });

  it('a malformed blob leaves out its row, with the row named', async () => {
    const { dbPath } = writeFixtureHome(home);
    const db = new DatabaseSync(dbPath);
    db.prepare('UPDATE steps SET step_payload = ? WHERE idx = 4').run(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x7f, 0x01]));
    db.prepare('UPDATE gen_metadata SET data = ? WHERE idx = 1').run(Buffer.from([0x07, 0x01]));
    db.close();
    const s = await readOnly();
    expect(s.steps.map((st) => st.key)).toEqual(['0', '1', '2', '3']);
    expect(s.conversation!.calls.map((c) => c.row)).toEqual([0, 2]);
    const messages = dbProblems(s).join('\n');
    expect(messages).toMatch(/Step 4: its step_payload is not a protobuf message \(.+\); the step is left out\./);
    expect(messages).toMatch(/Model call row 1: its data is not a protobuf message/);
  });
});

/** `../shared/real-db` beside the project (a worktree of it sits one level deeper). */
const realDb = [path.resolve(projectRoot, '../shared/real-db'), path.resolve(projectRoot, '../../shared/real-db')].find((p) => existsSync(p)) ?? '';

describe.skipIf(realDb === '')('the real databases of ../shared/real-db', () => {
  const roots = ['vibecoding/gemini/antigravity', 'vibecoding/gemini/antigravity-cli', 'hoafd/gemini/antigravity'].map((p) => path.join(realDb, p, 'brain'));
  let sessions: Map<string, Session>;
  let before: Record<string, string>;

  const allDbFiles = () => {
    const out: Record<string, string> = {};
    for (const root of roots) {
      const folder = path.join(path.dirname(root), 'conversations');
      for (const name of execFileSync('ls', [folder]).toString().split('\n').filter((n) => n.endsWith('.db'))) Object.assign(out, fileStates(path.join(folder, name)));
    }
    return out;
  };

  beforeEach(async () => {
    if (sessions) return;
    before = allDbFiles();
    const d = await discoverSessions({ brainRoots: roots });
    sessions = new Map();
    for (const ref of d.sessions) sessions.set(ref.id.slice(0, 8), await readSession(ref));
  });

  it('leaves every byte and mtime of every .db, -wal and -shm as it was', () => {
    expect(allDbFiles()).toEqual(before);
  });

  // README §5: the token sums of each conversation, read from the same files.
  it.each([
    ['e853036a', 50, 49, 328569, 1523125, 15518, 9566, 5952],
    ['d090e946', 58, 58, 204068, 2873244, 18521, 14317, 4204],
    ['adaad419', 39, 39, 151092, 1117319, 9799, 6287, 3512],
    ['7bdd48b8', 14, 14, 84335, 256003, 7950, 4943, 3007],
    ['6778bf9c', 14, 14, 73888, 231438, 5388, 3635, 1753],
    ['6b284218', 59, 57, 545680, 5048891, 133174, 20366, 112808],
    ['d580aa81', 64, 64, 593907, 5493669, 40292, 31193, 9099],
    ['d0bd9822', 2, 2, 35857, 0, 2231, 1230, 1001],
  ])('%s: %i calls, %i with usage, tokens to the token', (id, rows, withUsage, input, cacheRead, output, thinking, visible) => {
    const calls = sessions.get(id)!.conversation!.calls;
    const sum = (k: 'input' | 'cacheRead' | 'output' | 'thinking' | 'visible') => calls.reduce((a, c) => a + c[k], 0);
    expect([calls.length, calls.filter((c) => c.hasUsage).length, sum('input'), sum('cacheRead'), sum('output'), sum('thinking'), sum('visible')]).toEqual([
      rows, withUsage, input, cacheRead, output, thinking, visible,
    ]);
  });

  it('names the model of every call with usage', () => {
    const names = new Set([...sessions.values()].flatMap((s) => s.conversation!.calls.filter((c) => c.hasUsage).map((c) => c.modelName ?? c.modelId)));
    expect([...names].sort()).toEqual(['Gemini 3.5 Flash (Medium)', 'gemini-3-flash-b']);
  });

  it('every database step is on the timeline; the ones no transcript has are named', () => {
    const onlyDb = (id: string) => sessions.get(id)!.steps.filter((s) => s.origin === 'db').map((s) => s.index);
    const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
    expect(onlyDb('e853036a')).toEqual([4, ...range(104, 110)]);
    expect(onlyDb('6b284218')).toEqual([4, ...range(64, 69), 128, 129, 130]);
    expect(onlyDb('d0bd9822')).toEqual([3]);
    for (const id of ['d090e946', 'adaad419', '7bdd48b8', '6778bf9c', 'd580aa81']) expect(onlyDb(id)).toEqual([4]);
    for (const s of sessions.values()) {
      const indices = new Set(s.steps.map((st) => st.index));
      for (let i = 0; i < s.conversation!.stepRows; i++) expect(indices.has(i)).toBe(true);
    }
    // d090e946 has no WAL: its transcripts' step 128 stands alone, and the database's last two steps are not done.
    const d090 = sessions.get('d090e946')!;
    expect(d090.conversation!.withWal).toBe(false);
    expect(d090.steps.find((s) => s.index === 126)!.db!.status).toBe('GENERATING');
    expect(d090.steps.find((s) => s.index === 128)!.db).toBeUndefined();
    // Status histories as README §2.2 counts them: replies 8,3; commands waiting for permission 1,9,2,3.
    const e853 = sessions.get('e853036a')!;
    expect(e853.steps.find((s) => s.index === 2)!.db!.statusHistory.map((h) => h.status)).toEqual(['GENERATING', 'DONE']);
    const histories = [...sessions.values()].flatMap((s) => s.steps.filter((st) => st.db).map((st) => st.db!.statusHistory.map((h) => h.status).join(',')));
    expect(histories.filter((h) => h === 'PENDING,WAITING,RUNNING,DONE')).toHaveLength(96);
    expect(histories.filter((h) => h === 'GENERATING,DONE')).toHaveLength(301);
    // e853036a reads its WAL: 111 steps, 104 without it.
    expect(sessions.get('e853036a')!.conversation).toMatchObject({ withWal: true, stepRows: 111 });
  });

  it('joins without conflicts, and a RUNNING transcript step takes the final status of the database', () => {
    for (const s of sessions.values()) expect(s.problems.filter((p) => p.message.includes('disagree'))).toEqual([]);
    // The transcript's latest word on the step (its last record) was RUNNING.
    const wasRunning = [...sessions.values()].flatMap((s) => s.steps.filter((st) => st.db && st.sources.at(-1)?.raw.includes('"status":"RUNNING"')));
    const byFinal = (status: string) => wasRunning.filter((st) => st.status === status).length;
    expect({ DONE: byFinal('DONE'), CANCELLED: byFinal('CANCELLED'), ERROR: byFinal('ERROR'), RUNNING: byFinal('RUNNING') }).toEqual({ DONE: 36, CANCELLED: 2, ERROR: 0, RUNNING: 3 });
    // README §2.2: 38 steps RUNNING in a transcript are done (3) or canceled (6) in the database; the three still
    // RUNNING are d090e946's, whose WAL is missing (two running, one not started).
    expect(wasRunning.filter((st) => st.status === 'RUNNING').map((st) => `${st.index} ${st.db!.status}`)).toEqual(['95 RUNNING', '125 RUNNING', '127 PENDING']);
  });

  it('every string from the database goes through redaction (7bdd48b8 holds the planted Google API key)', async () => {
    const s = sessions.get('7bdd48b8')!;
    expect(JSON.stringify(s)).toMatch(/AIzaSy/);
    const { session } = await redactSession(s);
    expect(JSON.stringify(session)).not.toMatch(/AIzaSy[0-9A-Za-z_-]{20}/);
  });
});
