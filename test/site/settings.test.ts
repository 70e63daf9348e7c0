/**
 * Messages, not traces (issue 19): every store, input and setting error ends with a message, a hint and the exit
 * code the README documents (build and archive: 2 a setting or the store cannot be used; build: 1 it stopped to
 * keep the site served as it was). On main before this, a damaged or read-only store ended in a stack trace and
 * exit code 1, an ARCHIVE_BASE of `/../../etc/` or `javascript:…` in an Astro stack trace, a BRAIN_ROOTS of `:`
 * with a store that never held the sessions replaced a real archive with an empty one, and a file name that is
 * not UTF-8 was skipped without a problem row.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTree } from '../helpers/temp.ts';
import { discoverSessions, readSession } from '../../src/lib/brain/index.ts';
import { badBase } from '../../src/lib/build/settings.ts';
import { recordPublishedSite, siteRecordDir } from '../../src/lib/build/site-record.ts';
import { openStore, snapshotAll } from '../../src/lib/store/index.ts';
import { asStoreError } from '../../src/lib/store/schema.ts';
import { projectRoot } from '../helpers/build-site.ts';

const work = mkdtempSync(path.join(os.tmpdir(), 'agy-settings-'));
afterAll(() => removeTree(work));
const ID = 'aaaaaaaa-0000-4000-8000-000000000001';

/** A one-session home. */
function home(name: string): string {
  const dir = path.join(work, name);
  const logs = path.join(dir, 'antigravity', 'brain', ID, '.system_generated', 'logs');
  mkdirSync(logs, { recursive: true });
  writeFileSync(path.join(logs, 'transcript_full.jsonl'), `${JSON.stringify({ step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', content: 'hi' })}\n`);
  return dir;
}

/** Run one of the scripts with `env` (no HOME-based discovery, a store and a cache in the temp folder). */
function run(script: 'build' | 'archive' | 'sessions', env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(projectRoot, 'scripts', `${script}.ts`)],
      {
        cwd: projectRoot,
        env: { ...process.env, BRAIN_ROOTS: '', ARCHIVE_STORES: '', ARCHIVE_CACHE_DIR: path.join(work, 'cache'), ARCHIVE_OUT_DIR: path.join(work, 'dist'), NO_COLOR: '1', ...env },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** No stack trace: no `    at file:` frame, no `Node.js v` footer. */
const noTrace = (out: string): void => {
  expect(out).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m);
  expect(out).not.toMatch(/^Node\.js v\d/m);
};

describe('a damaged store', () => {
  it('stops archive, build and sessions with a message, a hint and exit code 2', async () => {
    const store = path.join(work, 'damaged.sqlite');
    const db = openStore(store);
    await snapshotAll(db, await discoverSessions({ geminiHome: home('damaged-home') }));
    db.close();
    // Every page after the first overwritten in its middle, as a bad disk or a copy cut short would.
    const bytes = readFileSync(store);
    const pageSize = bytes.readUInt16BE(16);
    for (let page = 1; page < bytes.length / pageSize; page++) bytes.fill(0xab, page * pageSize + 8, page * pageSize + 208);
    writeFileSync(store, bytes);
    for (const script of ['archive', 'build', 'sessions'] as const) {
      const r = await run(script, { GEMINI_HOME: path.join(work, 'damaged-home'), ARCHIVE_STORE: store });
      expect(r.code, `${script}: ${r.out}`).toBe(2);
      expect(r.out).toContain(`The archive store ${store} cannot be used: the database is damaged`);
      expect(r.out).toMatch(/\nHint: Keep a copy, then try `sqlite3 FILE ".recover"/);
      noTrace(r.out);
    }
  }, 120_000);
});

describe('a read-only store', () => {
  it('is a StoreError with a hint naming ARCHIVE_STORES', () => {
    const store = path.join(work, 'ro.sqlite');
    openStore(store).close();
    const ro = new DatabaseSync(store, { readOnly: true });
    let caught: unknown;
    try {
      ro.exec("INSERT INTO meta (key, value) VALUES ('x', 'y')");
    } catch (error) {
      caught = error;
    } finally {
      ro.close();
    }
    const stop = asStoreError(caught, store);
    expect(stop?.message).toContain(`The archive store ${store} cannot be used: it is read-only`);
    expect(stop?.hint).toContain('ARCHIVE_STORES=<file>');
    expect(asStoreError(new TypeError('a bug'), store)).toBeUndefined();
  });

  it.skipIf(process.getuid?.() === 0)('stops npm run archive with exit code 2 and no trace (a folder it cannot write)', async () => {
    const dir = path.join(work, 'ro-dir');
    mkdirSync(dir);
    const store = path.join(dir, 'archive.sqlite');
    openStore(store).close();
    rmSync(`${store}-wal`, { force: true });
    rmSync(`${store}-shm`, { force: true });
    const { chmodSync } = await import('node:fs');
    chmodSync(store, 0o400);
    chmodSync(dir, 0o500);
    try {
      const r = await run('archive', { GEMINI_HOME: home('ro-home'), ARCHIVE_STORE: store });
      expect(r.code, r.out).toBe(2);
      expect(r.out).toMatch(/cannot be used: .*\nHint: /s);
      noTrace(r.out);
    } finally {
      chmodSync(dir, 0o700);
      chmodSync(store, 0o600);
    }
  }, 60_000);
});

/** Whether `chattr +i` works here (root on a file system that has the flag): a store even root cannot write. */
function immutable(file: string, on: boolean): boolean {
  try {
    execFileSync('chattr', [on ? '+i' : '-i', file], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a store that cannot be written (chattr +i, where it works)', () => {
  it('stops npm run archive and npm run build with exit code 2, a hint naming ARCHIVE_STORES, and no trace', async (context) => {
    const store = path.join(work, 'immutable.sqlite');
    const db = openStore(store);
    await snapshotAll(db, await discoverSessions({ geminiHome: home('immutable-home') }));
    db.close();
    if (!immutable(store, true)) context.skip();
    try {
      for (const script of ['archive', 'build'] as const) {
        const r = await run(script, { GEMINI_HOME: path.join(work, 'immutable-home'), ARCHIVE_STORE: store, ARCHIVE_OUT_DIR: path.join(work, 'immutable-out') });
        expect(r.code, `${script}: ${r.out}`).toBe(2);
        expect(r.out).toContain(`The archive store ${store} cannot be used: permission denied`);
        expect(r.out).toMatch(/\nHint: .*ARCHIVE_STORES=<file>/);
        noTrace(r.out);
      }
    } finally {
      immutable(store, false);
    }
  }, 120_000);
});

describe('ARCHIVE_BASE', () => {
  it.each([
    ['/../../etc/', 'has a ".." segment'],
    ['javascript:alert(1)', 'is a URL, not a path'],
    ['//evil.example/x/', 'is a URL, not a path'],
    ['/a b/', 'has a segment with characters other than'],
    ['/a//b/', 'has an empty segment'],
  ])('%s is refused before any work, with a hint (exit code 2)', async (base, why) => {
    const r = await run('build', { GEMINI_HOME: home(`base-${why.length}-${base.length}`), ARCHIVE_STORE: 'none', ARCHIVE_BASE: base });
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain(`ARCHIVE_BASE=${JSON.stringify(base)} ${why}`);
    expect(r.out).toContain('Hint: give the sub-path the site is served under, e.g. ARCHIVE_BASE=/tools/agy-archive/');
    expect(r.out).not.toContain('[build]');
    noTrace(r.out);
  }, 60_000);

  it('takes what basePath takes', () => {
    for (const ok of [undefined, '', '/', '/tools/agy-archive/', 'tools/x', '/a/', '/team-a.b_c~d/']) expect(badBase(ok), String(ok)).toBeUndefined();
  });
});

describe('BRAIN_ROOTS of separators only', () => {
  it('is refused (exit code 2), not read as "no BRAIN_ROOTS"', async () => {
    const r = await run('build', { BRAIN_ROOTS: ':', GEMINI_HOME: home('colon-home'), ARCHIVE_STORE: 'none' });
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain('BRAIN_ROOTS=":" names no folder');
    expect(r.out).toMatch(/\nHint: give BRAIN_ROOTS brain folders/);
  }, 60_000);
});

describe('a build that finds no session', () => {
  it('does not replace an archive that has sessions (exit code 1, the out dir as it was)', async () => {
    const out = path.join(work, 'real-site');
    mkdirSync(path.join(out, 'sessions', ID), { recursive: true });
    writeFileSync(path.join(out, '.agy-archive-build'), '{"buildId":"b","demo":false}\n');
    writeFileSync(path.join(out, 'index.html'), '<html>real</html>\n');
    writeFileSync(path.join(out, 'sessions', ID, 'index.html'), '<html>session</html>\n');
    // Recorded as a build's own site, as publishing one records it.
    recordPublishedSite(siteRecordDir(process.env), out);
    // Brain folders that hold nothing, and a store that never held the archive's sessions.
    const emptyHome = path.join(work, 'fresh-gemini');
    mkdirSync(path.join(emptyHome, 'antigravity', 'brain'), { recursive: true });
    const r = await run('build', { GEMINI_HOME: emptyHome, ARCHIVE_STORE: path.join(work, 'never-held.sqlite'), ARCHIVE_OUT_DIR: out });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain(`and ${out} holds an archive with sessions: nothing was built, and it was left as it was.`);
    expect(r.out).toMatch(/\nHint: check GEMINI_HOME, BRAIN_ROOTS and ARCHIVE_STORE/);
    expect(readFileSync(path.join(out, 'sessions', ID, 'index.html'), 'utf8')).toBe('<html>session</html>\n');
  }, 60_000);
});

describe('a file name that is not UTF-8', () => {
  it('is a problem row, not skipped silently', async () => {
    const dir = home('latin1-home');
    const session = path.join(dir, 'antigravity', 'brain', ID);
    writeFileSync(Buffer.concat([Buffer.from(`${session}/notes-`), Buffer.from([0xe9]), Buffer.from('.md')]), 'caf\xe9\n');
    const [ref] = (await discoverSessions({ geminiHome: dir })).sessions;
    const read = await readSession(ref as NonNullable<typeof ref>);
    expect(read.problems).toEqual([
      expect.objectContaining({ kind: 'unreadable', file: 'notes-\uFFFD.md', message: expect.stringContaining('is not UTF-8') }),
    ]);
  });
});
