/**
 * The archive store on real stores in temp folders: a stored session reads back as the reader reads its folder,
 * a rolling window keeps every step with its fullest text, growth costs only what is new, and a file that is not
 * ours (or is newer, or corrupt) is refused and left untouched.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverSessions, readSession, type Session } from '../../src/lib/brain/index.ts';
import {
  SCHEMA_VERSION,
  StoreError,
  closeStoredReaders,
  defaultStorePath,
  listStoredSessions,
  openStore,
  readStoredSession,
  snapshotAll,
  storePathFromEnv,
} from '../../src/lib/store/index.ts';
import { resolveArchiveInputs } from '../../src/lib/archive/inputs.ts';
import { snapshotPhase } from '../../src/lib/archive/snapshot-phase.ts';
import { casesDir } from '../brain/helpers.ts';
import { projectRoot } from '../helpers/build-site.ts';
import { SESSION_A, SESSION_B, tempDir, transcript, writeSession } from './helpers.ts';
import { NOT_KEPT } from '../../src/lib/store/snapshot.ts';

afterEach(() => closeStoredReaders());

async function snapshotHome(store: string, home: string) {
  const db = openStore(store);
  try {
    return await snapshotAll(db, await discoverSessions({ geminiHome: home }));
  } finally {
    db.close();
  }
}

async function readBack(store: string, id: string): Promise<Session> {
  closeStoredReaders();
  const info = listStoredSessions([store]).find((s) => s.ref.id === id);
  if (!info) throw new Error(`session ${id} not in the store`);
  return readStoredSession(info.ref);
}

/** What both reads must agree on: everything but where it came from and the notices about chunk files. */
function comparable(s: Session): unknown {
  const { dir: _dir, archived: _archived, notShown, ...rest } = s;
  // The files the store does not keep (the messages' read state) are listed only when the folder is read.
  const kept = notShown?.filter((f) => !NOT_KEPT.has(f.file)) ?? [];
  return { ...rest, problems: s.problems.filter((p) => p.kind !== 'notice'), notShown: kept.length > 0 ? kept : undefined };
}

describe('a stored session reads back as its folder', () => {
  const cases = readdirSync(casesDir).filter((c) => !c.includes('.') && c !== 'duplicate-root');
  it.each(cases)('%s', async (name) => {
    const store = path.join(tempDir(), 'archive.sqlite');
    const home = path.join(casesDir, name);
    await snapshotHome(store, home);
    const { sessions } = await discoverSessions({ geminiHome: home });
    for (const ref of sessions) {
      const fromDisk = await readSession(ref);
      const fromStore = await readBack(store, ref.id);
      expect(comparable(fromStore)).toEqual(comparable(fromDisk));
    }
  });

  // The shared real sessions, beside the project (../shared) or beside its worktree folder (../../shared).
  const real = [path.resolve(casesDir, '../../../shared/real-brains/gemini'), path.resolve(casesDir, '../../../../shared/real-brains/gemini')].find((p) => existsSync(p)) ?? '';
  it.skipIf(real === '')('the real sessions', async () => {
    const store = path.join(tempDir(), 'archive.sqlite');
    await snapshotHome(store, real);
    const { sessions } = await discoverSessions({ geminiHome: real });
    expect(sessions.length).toBeGreaterThan(0);
    for (const ref of sessions) {
      expect(comparable(await readBack(store, ref.id))).toEqual(comparable(await readSession(ref)));
    }
  }, 300_000);
});

describe('rolling window', () => {
  it('keeps steps 0–159, the first snapshot’s full text for 0–99, and says what left the disk', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'archive.sqlite');
    writeSession(home, SESSION_A, { compact: transcript(0, 99, true), full: transcript(0, 99, false) });
    const first = await snapshotHome(store, home);
    expect(first.sessions.map((s) => s.status)).toEqual(['new']);
    writeSession(home, SESSION_A, { compact: transcript(60, 159, true), full: transcript(120, 159, false) });
    const second = await snapshotHome(store, home);
    expect(second.sessions[0]).toMatchObject({ status: 'changed', linesAdded: 60 + 40, linesGone: 60 + 100 });

    const s = await readBack(store, SESSION_A);
    expect(s.steps.map((st) => st.index)).toEqual(Array.from({ length: 160 }, (_, i) => i));
    for (const st of s.steps.slice(1, 100)) {
      expect(st.content).toContain(`end of step ${st.index}.`);
      expect(st.truncatedFields).toEqual([]);
    }
    for (const st of s.steps.slice(100, 120)) expect(st.truncatedFields).toEqual(['content']);
    for (const st of s.steps.slice(120)) expect(st.truncatedFields).toEqual([]);
    // 0–59 are in neither file on disk now; 60–99 still are in the compact file.
    expect(s.steps.filter((st) => st.notOnDiskSince).map((st) => st.index)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(s.missingSteps).toEqual([{ transcript: 'full', file: '.system_generated/logs/transcript_full.jsonl', ranges: [{ from: 100, to: 119 }] }]);
    expect(s.problems).toEqual([]);
  });
});

describe('what a snapshot reads and costs', () => {
  it('reads nothing when nothing changed, and a grown transcript costs about its new line', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'archive.sqlite');
    writeSession(home, SESSION_A, {
      compact: transcript(0, 499, true),
      full: transcript(0, 499, false),
      extra: { 'task.md': '# Task\n', '.system_generated/steps/3/output.txt': 'out\n' },
    });
    await snapshotHome(store, home);
    const again = await snapshotHome(store, home);
    expect(again.sessions[0]).toMatchObject({ status: 'unchanged', filesRead: 0 });

    const pageBytes = (): number => {
      const db = new DatabaseSync(store, { readOnly: true });
      try {
        const { bytes } = db.prepare('SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()').get() as { bytes: number };
        return Number(bytes);
      } finally {
        db.close();
      }
    };
    const before = pageBytes();
    const logs = path.join(home, 'antigravity', 'brain', SESSION_A, '.system_generated', 'logs');
    const fullSize = statSync(path.join(logs, 'transcript_full.jsonl')).size;
    appendFileSync(path.join(logs, 'transcript_full.jsonl'), `${JSON.stringify({ step_index: 500, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', content: 'one more' })}\n`);
    const grown = await snapshotHome(store, home);
    expect(grown.sessions[0]).toMatchObject({ status: 'changed', filesRead: 1, linesAdded: 1, linesGone: 0, versionsAdded: 0 });
    // A copy of the file would cost its whole size again; one line costs a page or two (and index entries).
    expect(pageBytes() - before).toBeLessThan(fullSize / 4);
  });

  it('keeps every version of a changed file, and files deleted from disk', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'archive.sqlite');
    const sessionDir = writeSession(home, SESSION_A, { full: transcript(0, 3, false), extra: { 'plan.md': '# Plan v1\n', 'plan.md.resolved': '# Plan v1\n' } });
    await snapshotHome(store, home);
    writeFileSync(path.join(sessionDir, 'plan.md'), '# Plan v2\n');
    writeFileSync(path.join(sessionDir, 'plan.md.resolved'), '# Plan v2\n');
    rmSync(path.join(sessionDir, '.system_generated', 'logs', 'transcript_full.jsonl'));
    const second = await snapshotHome(store, home);
    expect(second.sessions[0]).toMatchObject({ versionsAdded: 2, filesGone: 1, linesGone: 4 });
    const s = await readBack(store, SESSION_A);
    const plan = s.artifacts.find((a) => a.name === 'plan.md');
    expect(plan?.text).toBe('# Plan v2\n');
    expect(plan?.versions.map((v) => [v.file, v.text, v.replacedAt !== undefined])).toEqual([
      ['plan.md', '# Plan v1\n', true],
      ['plan.md.resolved', '# Plan v1\n', true],
      ['plan.md.resolved', '# Plan v2\n', false],
    ]);
    expect(s.steps.map((st) => st.index)).toEqual([0, 1, 2, 3]);
    expect(s.steps.every((st) => st.notOnDiskSince !== undefined)).toBe(true);
  });

  it('keeps a deleted session, marked with when it left the disk, and takes it back when it returns', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'archive.sqlite');
    const sessionDir = writeSession(home, SESSION_A, { full: transcript(0, 3, false) });
    writeSession(home, 'bbbbbbbb-0000-4000-8000-000000000002', { full: transcript(0, 1, false) });
    await snapshotHome(store, home);
    const copy = path.join(dir, 'kept');
    const { cpSync } = await import('node:fs');
    cpSync(sessionDir, copy, { recursive: true });
    rmSync(sessionDir, { recursive: true });
    const after = await snapshotHome(store, home);
    expect(after.goneNow).toEqual([SESSION_A]);
    const info = listStoredSessions([store]).find((x) => x.ref.id === SESSION_A);
    expect(info?.notOnDiskSince).toMatch(/^\d{4}-/);
    const s = await readBack(store, SESSION_A);
    expect(s.notOnDiskSince).toBe(info?.notOnDiskSince);
    expect(s.steps).toHaveLength(4);
    cpSync(copy, sessionDir, { recursive: true });
    await snapshotHome(store, home);
    expect(listStoredSessions([store]).find((x) => x.ref.id === SESSION_A)?.notOnDiskSince).toBeUndefined();
  });
});

describe('a brain folder deleted whole', () => {
  /** A session in `<home>/<product>/brain/`. */
  function writeIn(home: string, product: string, id: string): string {
    const dir = path.join(home, product, 'brain', id);
    mkdirSync(path.join(dir, '.system_generated', 'logs'), { recursive: true });
    writeFileSync(path.join(dir, '.system_generated', 'logs', 'transcript_full.jsonl'), transcript(0, 2, false));
    return dir;
  }
  const gone = (store: string) =>
    Object.fromEntries(listStoredSessions([store]).map((s) => [s.ref.id, s.notOnDiskSince !== undefined]));
  /** A home with SESSION_A in antigravity/ (and SESSION_B in jetski/), snapshotted once into a fresh store. */
  async function snapshottedHome(withJetski = true): Promise<{ dir: string; home: string; store: string }> {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'archive.sqlite');
    writeIn(home, 'antigravity', SESSION_A);
    if (withJetski) writeIn(home, 'jetski', SESSION_B);
    await snapshotHome(store, home);
    return { dir, home, store };
  }

  it('marks the sessions of a product folder removed from GEMINI_HOME, and only those', async () => {
    const { home, store } = await snapshottedHome();
    rmSync(path.join(home, 'jetski'), { recursive: true });
    const after = await snapshotHome(store, home);
    expect(after.goneNow).toEqual([SESSION_B]);
    expect(gone(store)).toEqual({ [SESSION_A]: false, [SESSION_B]: true });
  });

  it('says nothing of a brain folder a BRAIN_ROOTS run was not given, and marks one it was given that vanished', async () => {
    const { home, store } = await snapshottedHome();
    const only = async (...roots: string[]) => {
      const db = openStore(store);
      try {
        return await snapshotAll(db, await discoverSessions({ brainRoots: roots }));
      } finally {
        db.close();
      }
    };
    // Only the antigravity root: the jetski session is not looked for, so not marked.
    expect((await only(path.join(home, 'antigravity', 'brain'))).goneNow).toEqual([]);
    rmSync(path.join(home, 'jetski'), { recursive: true });
    expect((await only(path.join(home, 'antigravity', 'brain'))).goneNow).toEqual([]);
    expect((await only(path.join(home, 'antigravity', 'brain'), path.join(home, 'jetski', 'brain'))).goneNow).toEqual([SESSION_B]);
  });

  it('keeps every session of a GEMINI_HOME deleted whole, marked, and builds them from the store', async () => {
    const { home, store } = await snapshottedHome();
    rmSync(home, { recursive: true });
    const env = { GEMINI_HOME: home, BRAIN_ROOTS: '', ARCHIVE_STORE: store, ARCHIVE_STORES: '' };
    const outcome = await snapshotPhase(env, { info: () => {}, warn: () => {} });
    expect('summary' in outcome && outcome.summary.goneNow.sort()).toEqual([SESSION_A, SESSION_B]);
    const warnings: string[] = [];
    const inputs = await resolveArchiveInputs(projectRoot, env, { info: () => {}, warn: (m) => warnings.push(m) });
    expect(inputs.isDemo).toBe(false);
    expect(inputs.discovery.sessions.map((r) => r.id).sort()).toEqual([SESSION_A, SESSION_B]);
    expect(warnings.join('\n')).toContain(`Building from the archive store ${store}`);
  });

  it('does not build the store for a GEMINI_HOME that never held its sessions (a typo), nor create one', async () => {
    const { dir, store } = await snapshottedHome(false);
    const typo = { GEMINI_HOME: path.join(dir, 'hmoe'), BRAIN_ROOTS: '', ARCHIVE_STORE: store, ARCHIVE_STORES: '' };
    await snapshotPhase(typo, { info: () => {}, warn: () => {} });
    expect(gone(store)).toEqual({ [SESSION_A]: false });
    expect((await resolveArchiveInputs(projectRoot, typo, { info: () => {}, warn: () => {} })).isDemo).toBe(true);
    const noStore = { ...typo, ARCHIVE_STORE: path.join(dir, 'new.sqlite') };
    expect(await snapshotPhase(noStore, { info: () => {}, warn: () => {} })).toEqual({ skipped: 'no brain folder found: nothing to snapshot' });
    expect(existsSync(noStore.ARCHIVE_STORE)).toBe(false);
  });
});

describe('the store file', () => {
  it('is WAL, mode 0600, migrated to the current schema and passes integrity_check', async () => {
    const dir = tempDir();
    const store = path.join(dir, 'nested', 'archive.sqlite');
    await snapshotHome(store, path.join(casesDir, 'artifacts-versions'));
    expect(statSync(store).mode & 0o777).toBe(0o600);
    const db = new DatabaseSync(store, { readOnly: true });
    try {
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
      expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('refuses a file that is not SQLite, another program’s database, a newer store and a corrupt one, untouched', () => {
    const dir = tempDir();
    const notSqlite = path.join(dir, 'notes.txt');
    writeFileSync(notSqlite, 'my notes\n');
    const foreign = path.join(dir, 'foreign.sqlite');
    const other = new DatabaseSync(foreign);
    other.exec('CREATE TABLE t(x); INSERT INTO t VALUES (1)');
    other.close();
    const newer = path.join(dir, 'newer.sqlite');
    openStore(newer).close();
    const bump = new DatabaseSync(newer);
    bump.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    bump.exec('PRAGMA journal_mode = DELETE');
    bump.close();
    const corrupt = path.join(dir, 'corrupt.sqlite');
    openStore(corrupt).close();
    const flip = new DatabaseSync(corrupt);
    flip.exec('PRAGMA journal_mode = DELETE');
    flip.close();
    const bytes = readFileSync(corrupt);
    bytes.fill(0xa5, 100, 4096 * 2);
    writeFileSync(corrupt, bytes);

    for (const [file, message] of [
      [notSqlite, /is not an SQLite database/],
      [foreign, /database of another program/],
      [newer, /written by a newer agy-archive/],
      [corrupt, /cannot be read|malformed|not a database/],
    ] as const) {
      const before = readFileSync(file);
      let error: unknown;
      try {
        openStore(file).close();
      } catch (e) {
        error = e;
      }
      expect(error, file).toBeInstanceOf(StoreError);
      expect((error as StoreError).message).toMatch(message);
      expect((error as StoreError).hint.length).toBeGreaterThan(10);
      expect(readFileSync(file).equals(before), file).toBe(true);
    }
  });

  it('lives where the platform keeps user data, moves with ARCHIVE_STORE and is off with none', () => {
    expect(defaultStorePath({ HOME: '/home/u' }, 'linux')).toBe('/home/u/.local/share/agy-archive/archive.sqlite');
    expect(defaultStorePath({ HOME: '/home/u', XDG_DATA_HOME: '/data' }, 'linux')).toBe('/data/agy-archive/archive.sqlite');
    expect(defaultStorePath({ HOME: '/Users/u' }, 'darwin')).toBe('/Users/u/Library/Application Support/agy-archive/archive.sqlite');
    expect(storePathFromEnv({ ARCHIVE_STORE: 'none' })).toBeUndefined();
    expect(storePathFromEnv({ ARCHIVE_STORE: '/x/y.sqlite' })).toBe('/x/y.sqlite');
    // Under Vitest the default (the user's real store) is refused, so a test that forgets ARCHIVE_STORE fails.
    expect(() => storePathFromEnv({ HOME: '/home/u' })).toThrow(/ARCHIVE_STORE/);
  });

  it('snapshots a session with a file it cannot read, and keeps the problem for the report', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'archive.sqlite');
    const sessionDir = writeSession(home, SESSION_A, { full: transcript(0, 3, false), extra: { 'task.md': '# Task\n' } });
    // A named pipe: opening it would block, so the reader lists it as unreadable (root can read any mode-000 file).
    execFileSync('mkfifo', [path.join(sessionDir, 'stuck.md')]);
    const run = await snapshotHome(store, home);
    expect(run.sessions[0]?.status).toBe('new');
    expect(run.sessions[0]?.problems.map((p) => `${p.kind} ${p.file}`)).toEqual(['unreadable stuck.md']);
    const s = await readBack(store, SESSION_A);
    expect(s.steps).toHaveLength(4);
    expect(s.artifacts.map((a) => a.name)).toEqual(['task.md']);
    expect(s.problems.map((p) => `${p.kind} ${p.file}`)).toEqual(['unreadable stuck.md']);
    // Nothing new on disk: the next snapshot writes nothing, and the problem stays.
    expect((await snapshotHome(store, home)).sessions[0]?.status).toBe('unchanged');
  });
});

describe('the fullest text wins', () => {
  it('keeps a step’s untruncated compact record when a later snapshot holds it cut', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'archive.sqlite');
    const whole = { step_index: 1, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: '2026-01-01T00:00:01Z', content: 'the whole answer, every word of it' };
    const cut = { ...whole, content: 'the whole<truncated 25 bytes>', truncated_fields: ['content'] };
    const user = JSON.stringify({ step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: '2026-01-01T00:00:00Z', content: 'hi' });
    writeSession(home, SESSION_A, { compact: `${user}\n${JSON.stringify(whole)}\n` });
    await snapshotHome(store, home);
    writeSession(home, SESSION_A, { compact: `${user}\n${JSON.stringify(cut)}\n` });
    await snapshotHome(store, home);
    const s = await readBack(store, SESSION_A);
    expect(s.steps.map((st) => [st.index, st.content, st.truncatedFields])).toEqual([
      [0, 'hi', []],
      [1, 'the whole answer, every word of it', []],
    ]);
  });
});
