/**
 * `npm run archive` as cron, a build and a user run it: really killed mid-snapshot, run twice at once, pointed at a
 * file that is not ours, forgetting a session, exporting with and without redaction, several machines' stores, and
 * `--watch` picking up an appended line. Every store is a temp file.
 */
import { execFile, spawn } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverSessions } from '../../src/lib/brain/index.ts';
import { SCHEMA_VERSION, closeStoredReaders, listStoredSessions, openStore, readStoredSession, snapshotAll } from '../../src/lib/store/index.ts';
import { projectRoot } from '../helpers/build-site.ts';
import { SESSION_A, SESSION_B, tempDir, transcript, writeSession } from './helpers.ts';

afterEach(() => closeStoredReaders());

const archiveScript = path.join(projectRoot, 'scripts', 'archive.ts');

/** Run `npm run archive -- …args` (the script itself, with the project's Node). */
function archive(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [archiveScript, ...args], { cwd: projectRoot, env: { ...process.env, BRAIN_ROOTS: '', ...env } }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? (error.code as number) : 0, out: `${stdout}${stderr}` });
    });
  });
}

function query<T>(store: string, sql: string, ...params: Array<string | number>): T[] {
  const db = new DatabaseSync(store, { readOnly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Session ids → stored line counts. */
const lineCounts = (store: string): Map<string, number> =>
  new Map(query<{ id: string; n: number }>(store, 'SELECT s.id, (SELECT count(*) FROM transcript_lines t WHERE t.session_id = s.id) AS n FROM sessions s').map((r) => [r.id, Number(r.n)]));

/** A home of `sessions` sessions with `steps` steps each (compact and full). */
function bigHome(dir: string, sessions: number, steps: number): { home: string; ids: string[] } {
  const home = path.join(dir, 'home');
  const ids: string[] = [];
  for (let n = 0; n < sessions; n++) {
    const id = `cccccccc-0000-4000-8000-${String(n).padStart(12, '0')}`;
    writeSession(home, id, { compact: transcript(0, steps - 1, true), full: transcript(0, steps - 1, false) });
    ids.push(id);
  }
  return { home, ids };
}

/** Whether every folder from `/` down to `dir` lets other users through (o+x). */
function reachableByOthers(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return false;
    if (path.dirname(d) === d) return true;
  }
}

describe('a snapshot killed with SIGKILL', () => {
  it('leaves every session as it was before or after, and the store intact', async () => {
    const dir = tempDir();
    const { home, ids } = bigHome(dir, 6, 4000);
    const store = path.join(dir, 'archive.sqlite');
    let sawPartialRun = false;
    /** Sessions stored so far, or -1 while the store cannot be read yet (being created). */
    const storedNow = (): number => {
      try {
        return existsSync(store) ? lineCounts(store).size : -1;
      } catch {
        return -1;
      }
    };
    // Killed at fixed times (start-up, the migration, the first session) and as soon as k sessions are stored (so
    // the kill lands while the next session's snapshot runs, however loaded the machine is).
    const kills: Array<{ after?: number; sessions?: number }> = [{ after: 300 }, { after: 800 }, ...[1, 2, 3, 4, 5].map((n) => ({ sessions: n }))];
    for (const when of kills) {
      rmSync(store, { force: true });
      rmSync(`${store}-wal`, { force: true });
      rmSync(`${store}-shm`, { force: true });
      const child = spawn(process.execPath, [archiveScript], { cwd: projectRoot, env: { ...process.env, GEMINI_HOME: home, BRAIN_ROOTS: '', ARCHIVE_STORE: store }, stdio: 'ignore' });
      let exited = false;
      const closed = new Promise((resolve) => child.on('close', () => resolve((exited = true))));
      if (when.after !== undefined) await sleep(when.after);
      else while (!exited && storedNow() < (when.sessions as number)) await sleep(5);
      child.kill('SIGKILL');
      await closed;
      if (!existsSync(store)) continue;
      expect(query(store, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      // Killed before the first migration committed: the store is as it was (empty, no tables), and usable.
      if (query(store, "SELECT name FROM sqlite_schema WHERE name = 'sessions'").length === 0) {
        expect(query(store, 'SELECT name FROM sqlite_schema')).toEqual([]);
        continue;
      }
      const counts = lineCounts(store);
      // A session is in the store whole (both transcripts, 8000 lines) or not at all.
      for (const [id, n] of counts) expect(n, id).toBe(8000);
      if (counts.size > 0 && counts.size < ids.length) sawPartialRun = true;
    }
    const finish = await archive([], { GEMINI_HOME: home, ARCHIVE_STORE: store });
    expect(finish.code, finish.out).toBe(0);
    expect([...lineCounts(store).values()]).toEqual(ids.map(() => 8000));
    // At least one kill landed between sessions' transactions (the point of the test); the timings are generous.
    expect(sawPartialRun).toBe(true);
    // A guard against a hang, not a speed bound: six kills and a finishing run take minutes on a loaded machine.
  }, 600_000);
});

describe('two snapshots at once', () => {
  it('wait for each other and both finish, each session stored once', async () => {
    const dir = tempDir();
    const { home, ids } = bigHome(dir, 4, 1500);
    const store = path.join(dir, 'archive.sqlite');
    const [a, b] = await Promise.all([
      archive([], { GEMINI_HOME: home, ARCHIVE_STORE: store }),
      archive([], { GEMINI_HOME: home, ARCHIVE_STORE: store }),
    ]);
    expect(a?.code, a?.out).toBe(0);
    expect(b?.code, b?.out).toBe(0);
    expect([...lineCounts(store).values()]).toEqual(ids.map(() => 3000));
    expect(query(store, 'PRAGMA user_version')).toEqual([{ user_version: SCHEMA_VERSION }]);
    expect(query(store, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  }, 120_000);
});

describe('a new store opened by many processes at once', () => {
  it('is set up once and taken as ours by every one of them', async () => {
    const dir = tempDir();
    const schema = path.join(projectRoot, 'src', 'lib', 'store', 'schema.ts');
    const code = `import { openStore } from ${JSON.stringify(schema)}; openStore(process.argv[1]).close();`;
    const open = (store: string) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        execFile(process.execPath, ['--input-type=module', '-e', code, store], (error, _out, err) => resolve({ code: error ? (error.code as number) ?? 1 : 0, err }));
      });
    // Each round a fresh store and 6 processes racing to create it: a reader between another's first migration
    // reads and its commit once took the half-made store for another program's.
    for (let round = 0; round < 3; round++) {
      const store = path.join(dir, `race-${round}.sqlite`);
      const results = await Promise.all(Array.from({ length: 6 }, () => open(store)));
      for (const r of results) expect(r, r.err).toMatchObject({ code: 0 });
      expect(query(store, 'PRAGMA user_version')).toEqual([{ user_version: SCHEMA_VERSION }]);
    }
  }, 120_000);
});

describe('a new store another process is writing', () => {
  it('waits for the file instead of failing at once to switch to WAL', async () => {
    const store = path.join(tempDir(), 'archive.sqlite');
    // Another connection holds the write lock on the new file: switching the journal to WAL needs the file to itself,
    // and SQLite answered "database is locked" at once (1 ms) rather than waiting (two snapshots at once failed so).
    const holder = new DatabaseSync(store);
    holder.exec('BEGIN IMMEDIATE');
    const schema = path.join(projectRoot, 'src', 'lib', 'store', 'schema.ts');
    const code = `import { openStore } from ${JSON.stringify(schema)}; openStore(process.argv[1]).close();`;
    const started = Date.now();
    const opened = new Promise<{ code: number; err: string; ms: number }>((resolve) => {
      execFile(process.execPath, ['--input-type=module', '-e', code, store], (error, _out, err) =>
        resolve({ code: error ? ((error.code as number) ?? 1) : 0, err, ms: Date.now() - started }),
      );
    });
    await sleep(1500);
    holder.exec('ROLLBACK');
    holder.close();
    const result = await opened;
    expect(result, result.err).toMatchObject({ code: 0 });
    expect(result.ms).toBeGreaterThanOrEqual(1500);
    expect(query(store, 'PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    expect(query(store, 'PRAGMA user_version')).toEqual([{ user_version: SCHEMA_VERSION }]);
  });
});

describe('a store that is not ours', () => {
  it('stops npm run archive and npm run build with a message and a hint, file untouched', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    writeSession(home, SESSION_A, { full: transcript(0, 3, false) });
    const foreign = path.join(dir, 'photos.db');
    const db = new DatabaseSync(foreign);
    db.exec('CREATE TABLE photos(name); INSERT INTO photos VALUES (\'cat.jpg\')');
    db.close();
    const before = readFileSync(foreign);
    const r = await archive([], { GEMINI_HOME: home, ARCHIVE_STORE: foreign });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/another program.*\nHint: /s);
    const build = await new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile(process.execPath, [path.join(projectRoot, 'scripts', 'build.ts')], {
        cwd: projectRoot,
        env: { ...process.env, GEMINI_HOME: home, BRAIN_ROOTS: '', ARCHIVE_STORE: foreign, ARCHIVE_OUT_DIR: path.join(dir, 'dist'), ARCHIVE_CACHE_DIR: path.join(dir, 'cache') },
      }, (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, out: `${stdout}${stderr}` }));
    });
    expect(build.code).toBe(2);
    expect(build.out).toMatch(/not an agy-archive store.*\nHint: /s);
    expect(readFileSync(foreign).equals(before)).toBe(true);
    expect(existsSync(path.join(dir, 'dist', 'index.html'))).toBe(false);
  }, 120_000);
});

describe('a store damaged inside a data page', () => {
  it('stops npm run archive before it writes anything, and says the store is damaged', async () => {
    const dir = tempDir();
    const { home } = bigHome(dir, 3, 40);
    const store = path.join(dir, 'archive.sqlite');
    expect((await archive([], { GEMINI_HOME: home, ARCHIVE_STORE: store })).code).toBe(0);
    // A later page of the file (a table's data, never the header page), overwritten as a failing disk or a stray
    // write would: today no query of a snapshot reads it, so the snapshot went on and wrote into the file.
    const bytes = readFileSync(store);
    const pageSize = bytes.readUInt16BE(16);
    const pages = bytes.length / pageSize;
    expect(pages).toBeGreaterThan(8);
    const page = Math.floor(pages / 2);
    bytes.fill(0x5a, page * pageSize + 8, (page + 1) * pageSize);
    writeFileSync(store, bytes);
    writeSession(home, SESSION_A, { full: transcript(0, 5, false) });
    const r = await archive([], { GEMINI_HOME: home, ARCHIVE_STORE: store });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/cannot be used: the database is damaged \(PRAGMA quick_check: .+\); nothing was written to it\.\nHint: .*\.recover/s);
    expect(readFileSync(store).equals(bytes)).toBe(true);
    expect(existsSync(`${store}-wal`)).toBe(false);
  }, 120_000);
});

describe('a store in a folder its user cannot write', () => {
  // As root every folder is writable: the store is opened by a process of the unprivileged user `nobody`.
  // Run as nobody (uid 65534), which must reach the project and the temp folder: not so for a clone in root's own
  // home (/root is 0700), so there it cannot run.
  it.runIf(process.getuid?.() === 0 && reachableByOthers(projectRoot) && reachableByOthers(path.dirname(os.tmpdir())))('says the folder is read-only, not that the store may be corrupt', async () => {
    const dir = tempDir();
    const { home } = bigHome(dir, 1, 5);
    // The run's own temp folder (test/helpers/global-setup.ts, made 0700) must let nobody through to `dir`.
    if (path.basename(os.tmpdir()).startsWith('agy-test-run-')) chmodSync(os.tmpdir(), 0o755);
    const folder = path.join(dir, 'store');
    const store = path.join(folder, 'archive.sqlite');
    expect((await archive([], { GEMINI_HOME: home, ARCHIVE_STORE: store })).code).toBe(0);
    // nobody must reach the folder: the run's temp folder (TMPDIR, test/helpers/global-setup.ts) is 0700.
    for (let d = dir; d.startsWith(os.tmpdir()) && d !== path.dirname(d); d = path.dirname(d)) chmodSync(d, statSync(d).mode | 0o011);
    chmodSync(dir, 0o755);
    chmodSync(home, 0o755);
    chmodSync(folder, 0o555);
    chmodSync(store, 0o644);
    const before = readFileSync(store);
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile(process.execPath, [archiveScript], { cwd: projectRoot, uid: 65534, gid: 65534, env: { ...process.env, BRAIN_ROOTS: '', GEMINI_HOME: home, ARCHIVE_STORE: store, HOME: dir } }, (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, out: `${stdout}${stderr}` }),
      );
    });
    chmodSync(folder, 0o755);
    expect(r.code, r.out).toBe(2);
    expect(r.out).not.toMatch(/corrupt|damaged/);
    expect(r.out).toMatch(/permission denied|read-only|cannot be opened/);
    expect(r.out).toMatch(/Hint: .*(permissions|writable)/);
    expect(readFileSync(store).equals(before)).toBe(true);
  }, 120_000);
});

describe('--forget', () => {
  it('names what it would remove, wants --yes, then removes every byte of it', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'archive.sqlite');
    const marker = 'FORGET-ME-MARKER-7c1e';
    writeSession(home, SESSION_A, { full: transcript(0, 3, false), extra: { 'notes.md': `# ${marker}\n` } });
    writeSession(home, SESSION_B, { full: transcript(0, 2, false) });
    expect((await archive([], { GEMINI_HOME: home, ARCHIVE_STORE: store })).code).toBe(0);
    const asked = await archive(['--forget', 'aaaa'], { GEMINI_HOME: home, ARCHIVE_STORE: store });
    expect(asked.code).toBe(1);
    expect(asked.out).toContain(`Would remove session ${SESSION_A}`);
    expect(asked.out).toMatch(/--yes/);
    expect(lineCounts(store).get(SESSION_A)).toBe(4);
    const done = await archive(['--forget', 'aaaa', '--yes'], { GEMINI_HOME: home, ARCHIVE_STORE: store });
    expect(done.code, done.out).toBe(0);
    expect(done.out).toContain(`Removed session ${SESSION_A}`);
    expect([...lineCounts(store).keys()]).toEqual([SESSION_B]);
    expect(query(store, 'SELECT count(*) AS n FROM blobs WHERE data LIKE ?', `%${marker}%`)).toEqual([{ n: 0 }]);
    for (const file of [store, `${store}-wal`]) if (existsSync(file)) expect(readFileSync(file).includes(marker), file).toBe(false);
  }, 60_000);
});

describe('--export', () => {
  const secret = ['ghp_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('');
  it('writes a redacted copy by default and a raw one only with --raw, never over a file', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'archive.sqlite');
    const records = `${transcript(0, 1, false)}${JSON.stringify({ step_index: 2, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', content: `use token ${secret} now` })}\n`;
    writeSession(home, SESSION_A, { full: records, extra: { 'plan.md': `# Plan\nexport GITHUB_TOKEN=${secret}\n` } });
    expect((await archive([], { GEMINI_HOME: home, ARCHIVE_STORE: store })).code).toBe(0);
    const shared = path.join(dir, 'shared.sqlite');
    const r = await archive(['--export', shared], { GEMINI_HOME: home, ARCHIVE_STORE: store });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/redacted \(2 text\(s\)/);
    expect(readFileSync(shared).includes(secret)).toBe(false);
    const session = await readStoredSession((listStoredSessions([shared])[0] as { ref: Parameters<typeof readStoredSession>[0] }).ref);
    expect(session.steps[2]?.content).toMatch(/^use token \[REDACTED:[a-z-]+\] now$/);
    expect(session.artifacts.find((a) => a.name === 'plan.md')?.text).toMatch(/GITHUB_TOKEN=\[REDACTED/);
    expect(query(shared, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);

    const again = await archive(['--export', shared], { GEMINI_HOME: home, ARCHIVE_STORE: store });
    expect(again.code).toBe(2);
    expect(again.out).toMatch(/already exists.*\nHint: /s);

    const raw = path.join(dir, 'raw.sqlite');
    const rr = await archive(['--export', raw, '--raw'], { GEMINI_HOME: home, ARCHIVE_STORE: store });
    expect(rr.code, rr.out).toBe(0);
    expect(rr.out).toContain('NOT redacted');
    expect(readFileSync(raw).includes(secret)).toBe(true);
  }, 60_000);
});

describe('ARCHIVE_STORES', () => {
  it('merges the same session from two machines’ stores like two snapshots', async () => {
    const dir = tempDir();
    const early = path.join(dir, 'early');
    const late = path.join(dir, 'late');
    writeSession(early, SESSION_A, { compact: transcript(0, 99, true), full: transcript(0, 99, false) });
    writeSession(late, SESSION_A, { compact: transcript(60, 159, true), full: transcript(120, 159, false) });
    writeSession(late, SESSION_B, { full: transcript(0, 2, false) });
    const stores = [path.join(dir, 'laptop.sqlite'), path.join(dir, 'desktop.sqlite')];
    for (const [store, home] of [[stores[0], early], [stores[1], late]] as const) {
      const db = openStore(store as string);
      await snapshotAll(db, await discoverSessions({ geminiHome: home }));
      db.close();
    }
    const listed = listStoredSessions(stores);
    expect(listed.map((s) => s.ref.id).sort()).toEqual([SESSION_A, SESSION_B]);
    const a = await readStoredSession((listed.find((s) => s.ref.id === SESSION_A) as (typeof listed)[number]).ref);
    expect(a.steps.map((s) => s.index)).toEqual(Array.from({ length: 160 }, (_, i) => i));
    expect(a.steps.slice(1, 100).every((s) => s.truncatedFields.length === 0 && s.content?.includes(`end of step ${s.index}.`))).toBe(true);
    expect(a.steps.slice(100, 120).every((s) => s.truncatedFields.includes('content'))).toBe(true);
    expect(a.missingSteps).toEqual([{ transcript: 'full', file: '.system_generated/logs/transcript_full.jsonl', ranges: [{ from: 100, to: 119 }] }]);
    expect(a.problems).toEqual([]);
  });
});

describe('--watch', () => {
  it('snapshots a line appended to a transcript within seconds', async () => {
    const dir = tempDir();
    const home = path.join(dir, 'home');
    const store = path.join(dir, 'archive.sqlite');
    const sessionDir = writeSession(home, SESSION_A, { full: transcript(0, 9, false) });
    const child = spawn(process.execPath, [archiveScript, '--watch'], {
      cwd: projectRoot,
      env: { ...process.env, GEMINI_HOME: home, BRAIN_ROOTS: '', ARCHIVE_STORE: store, ARCHIVE_WATCH_QUIET_MS: '300' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      const until = async (test: () => boolean, what: string): Promise<void> => {
        const deadline = Date.now() + 30_000;
        while (!test()) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output:\n${output}`);
          await sleep(100);
        }
      };
      await until(() => output.includes('watching'), 'the watcher');
      expect(lineCounts(store).get(SESSION_A)).toBe(10);
      appendFileSync(path.join(sessionDir, '.system_generated', 'logs', 'transcript_full.jsonl'), `${JSON.stringify({ step_index: 10, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', content: 'written just now' })}\n`);
      await until(() => /changed\s+aaaaaaaa\s+\+1 line/.test(output), 'the snapshot of the new line');
      expect(lineCounts(store).get(SESSION_A)).toBe(11);
      writeFileSync(path.join(sessionDir, 'task.md'), '# Task\n');
      await until(() => /\+1 file version/.test(output), 'the snapshot of a new file');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('close', resolve));
    }
  }, 60_000);
});
