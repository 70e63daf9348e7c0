/**
 * No number stops anything (issue 19): a `step_index` that is not a whole number from 0 to 2^53 − 1 is a problem
 * with its file and line and the record is kept as an INVALID_RECORD step; the store takes it; one session's data
 * never stops another's snapshot; a session that cannot be read at all is listed with a problem, never missing.
 * On main before this, one line `{"step_index":1e20,"content":"x"}` made `npm run archive` stop at that session
 * ("cannot store REAL value in INTEGER column coverage.last_index", 1 of 3 sessions stored) and `npm run build`
 * exit 1 on every run; a number above 2^53 stored earlier made the store's reader throw, and the session dropped
 * from the site silently.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { readSessionOrPlaceholder } from '../../src/lib/archive/unreadable.ts';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import { readStepIndex } from '../../src/lib/brain/step-index.ts';
import type { SessionRef } from '../../src/lib/brain/types.ts';
import { closeStoredReaders, listStoredSessions, openStore, readStoredSession, snapshotAll } from '../../src/lib/store/index.ts';
import { buildSite, projectRoot } from '../helpers/build-site.ts';
import { SESSION_A, SESSION_B, tempDir, transcript, writeSession } from './helpers.ts';

afterEach(() => closeStoredReaders());

const SESSION_C = 'cccccccc-3333-4333-8333-333333333333';
const FULL = path.join('.system_generated', 'logs', 'transcript_full.jsonl');

/** A home of three sessions, two of them with one record whose step_index is `1e20` or above 2^53. */
function homeWithBadNumbers(dir: string): string {
  const home = path.join(dir, 'home');
  writeSession(home, SESSION_A, { full: `${transcript(0, 2, false)}{"step_index":1e20,"content":"x"}\n` });
  writeSession(home, SESSION_B, { full: `${transcript(0, 2, false)}{"step_index":9007199254740993,"content":"y"}\n` });
  writeSession(home, SESSION_C, { full: transcript(0, 2, false) });
  return home;
}

function archive(env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(projectRoot, 'scripts', 'archive.ts')], { cwd: projectRoot, env: { ...process.env, BRAIN_ROOTS: '', ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe('readStepIndex', () => {
  it.each([
    ['1e20', '{"step_index":1e20}'],
    ['1.5', '{"step_index":1.5}'],
    ['-3', '{"step_index":-3}'],
    ['9007199254740993', '{"step_index":9007199254740993}'],
    ['9007199254740992', '{"step_index":9007199254740992}'],
    ['"99999999999999999999"', '{"step_index":"99999999999999999999"}'],
    ['true', '{"step_index":true}'],
  ])('refuses %s, naming it as written', (written, line) => {
    const reading = readStepIndex(JSON.parse(line), line);
    expect(reading.index).toBeUndefined();
    expect(reading).toMatchObject({ missing: false, problem: `step_index ${written} is not a whole number from 0 to 9007199254740991 (2^53 − 1)` });
  });

  it('takes whole numbers up to 2^53 − 1, as numbers or digit strings; no step_index is missing', () => {
    expect(readStepIndex({ step_index: 0 }).index).toBe(0);
    expect(readStepIndex({ step_index: 9007199254740991 }).index).toBe(9007199254740991);
    expect(readStepIndex({ step_index: '42' }).index).toBe(42);
    expect(readStepIndex({ content: 'x' })).toEqual({ missing: true });
  });
});

describe('a step_index that is not a safe integer', () => {
  it('is a problem with its file and line, and the record is kept as an INVALID_RECORD step', async () => {
    const home = homeWithBadNumbers(tempDir());
    const { sessions } = await discoverSessions({ geminiHome: home });
    const a = await readSession(sessions.find((r) => r.id === SESSION_A) as SessionRef);
    expect(a.problems.map((p) => [p.kind, p.file, p.line])).toEqual([['bad-record', FULL.split(path.sep).join('/'), 4]]);
    expect(a.problems[0]?.message).toContain('step_index 1e20 is not a whole number');
    const kept = a.steps.find((s) => s.type === 'INVALID_RECORD');
    expect(kept?.key).toBe('-1');
    expect(kept?.sources[0]?.raw).toBe('{"step_index":1e20,"content":"x"}');
    const b = await readSession(sessions.find((r) => r.id === SESSION_B) as SessionRef);
    expect(b.problems.map((p) => p.message)).toEqual([expect.stringContaining('step_index 9007199254740993 is not a whole number')]);
    expect(b.steps.map((s) => s.key)).toEqual(['0', '1', '2', '-1']);
  });

  it('is taken by the store: npm run archive stores all three sessions (exit 0), and reads them back with the problem', async () => {
    const dir = tempDir();
    const home = homeWithBadNumbers(dir);
    const store = path.join(dir, 'archive.sqlite');
    const r = await archive({ GEMINI_HOME: home, ARCHIVE_STORE: store });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('3 sessions on disk (3 new');
    const stored = listStoredSessions([store]);
    expect(stored.map((s) => s.ref.id).sort()).toEqual([SESSION_A, SESSION_B, SESSION_C].sort());
    const a = await readStoredSession((stored.find((s) => s.ref.id === SESSION_A) as { ref: SessionRef }).ref);
    expect(a.problems.map((p) => p.message)).toEqual([expect.stringContaining('step_index 1e20 is not a whole number')]);
    expect(a.steps.map((s) => s.key)).toEqual(['0', '1', '2', '-1']);
  }, 60_000);

  it('stored out of range by an older snapshot, is left out of the coverage read back instead of throwing', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    writeSession(home, SESSION_A, { full: transcript(0, 2, false) });
    const store = path.join(dir, 'archive.sqlite');
    const db = openStore(store);
    await snapshotAll(db, await discoverSessions({ geminiHome: home }));
    db.close();
    const raw = new DatabaseSync(store);
    raw.prepare('INSERT INTO coverage (session_id, transcript, first_index, last_index) VALUES (?, ?, ?, ?)').run(SESSION_A, 'full', 9007199254740000, BigInt('9007199254740993'));
    raw.close();
    const [info] = listStoredSessions([store]);
    const session = await readStoredSession((info as { ref: SessionRef }).ref);
    expect(session.steps.map((s) => s.key)).toEqual(['0', '1', '2']);
    // The next snapshot drops the row it cannot read back.
    appendFileSync(path.join(home, 'antigravity', 'brain', SESSION_A, FULL), `${transcript(3, 3, false)}`);
    const again = openStore(store);
    await snapshotAll(again, await discoverSessions({ geminiHome: home }));
    expect(again.prepare('SELECT first_index AS f, last_index AS t FROM coverage').all()).toEqual([{ f: 0, t: 3 }]);
    again.close();
  });
});

describe('one session whose snapshot fails', () => {
  it('does not stop the others: they are stored, it is marked failed with a problem the report lists', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    for (const id of [SESSION_A, SESSION_B, SESSION_C]) writeSession(home, id, { full: transcript(0, 2, false) });
    const store = path.join(dir, 'archive.sqlite');
    const db = openStore(store);
    await snapshotAll(db, await discoverSessions({ geminiHome: home }));
    // Something in B's data that the store refuses (here a trigger stands for it).
    db.exec(`CREATE TRIGGER refuse_b BEFORE INSERT ON transcript_lines WHEN NEW.session_id = '${SESSION_B}' BEGIN SELECT RAISE(ABORT, 'B cannot be stored'); END`);
    for (const id of [SESSION_A, SESSION_B, SESSION_C]) appendFileSync(path.join(home, 'antigravity', 'brain', id, FULL), transcript(3, 3, false));
    const summary = await snapshotAll(db, await discoverSessions({ geminiHome: home }));
    const byId = new Map(summary.sessions.map((s) => [s.id, s]));
    expect(byId.get(SESSION_A)?.status).toBe('changed');
    expect(byId.get(SESSION_C)?.status).toBe('changed');
    expect(byId.get(SESSION_B)?.status).toBe('failed');
    expect(byId.get(SESSION_B)?.problems[0]?.message).toContain('B cannot be stored');
    db.close();
    const stored = listStoredSessions([store]);
    const b = await readStoredSession((stored.find((s) => s.ref.id === SESSION_B) as { ref: SessionRef }).ref);
    expect(b.steps.map((s) => s.key)).toEqual(['0', '1', '2']);
    expect(b.problems.map((p) => p.message)).toEqual([expect.stringContaining('This snapshot of the session failed (B cannot be stored')]);
    const a = await readStoredSession((stored.find((s) => s.ref.id === SESSION_A) as { ref: SessionRef }).ref);
    expect(a.steps.map((s) => s.key)).toEqual(['0', '1', '2', '3']);
  });
});

describe('a session that cannot be read at all', () => {
  it('is listed with no steps and a problem saying why', async () => {
    const dir = tempDir();
    const ref: SessionRef = {
      id: SESSION_A,
      product: 'antigravity',
      root: path.join(dir, 'gone', 'antigravity', 'brain'),
      dir: path.join(dir, 'gone', 'antigravity', 'brain', SESSION_A),
      mtimeMs: 0,
      ctimeMs: 0,
      stored: { stores: [path.join(dir, 'no-such-store.sqlite')], fingerprint: 'x', bytes: 0 },
    };
    const session = await readSessionOrPlaceholder(ref);
    expect(session.id).toBe(SESSION_A);
    expect(session.steps).toEqual([]);
    expect(session.problems).toEqual([expect.objectContaining({ kind: 'unreadable', sessionId: SESSION_A, message: expect.stringContaining('This session could not be read') })]);
  });
});

describe('npm run build over a step_index of 1e20 and one above 2^53', () => {
  it('builds every session (exit 0) and lists both records on /report/', async () => {
    const dir = tempDir();
    const home = homeWithBadNumbers(dir);
    const outDir = path.join(dir, 'dist');
    const result = await buildSite({ env: { GEMINI_HOME: home }, outDir });
    expect(result.code, result.output.slice(-3000)).toBe(0);
    for (const id of [SESSION_A, SESSION_B, SESSION_C]) expect(existsSync(path.join(outDir, 'sessions', id, 'index.html')), id).toBe(true);
    const report = readFileSync(path.join(outDir, 'report', 'index.html'), 'utf8');
    expect(report).toContain('step_index 1e20 is not a whole number');
    expect(report).toContain('step_index 9007199254740993 is not a whole number');
  }, 300_000);
});
