/**
 * `npm run build` over a temporary store, as a user sees it: a rolling window and a deleted session between two
 * builds, then `npm run sessions`. The store is a temp file: never the user's.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite, projectRoot } from '../helpers/build-site.ts';
import { discoverSessions } from '../../src/lib/brain/index.ts';
import { openStore, snapshotAll } from '../../src/lib/store/index.ts';
import { SESSION_A, SESSION_B, tempDirOnce, transcript, writeSession } from './helpers.ts';

/** A session with a file no snapshot can read (a named pipe), and one only another machine's store holds. */
const SESSION_C = 'cccccccc-0000-4000-8000-000000000003';
const SESSION_D = 'dddddddd-0000-4000-8000-000000000004';

const run = promisify(execFile);
let dir = '';
let out = '';
let store = '';
let home = '';
let first = { code: null as number | null, output: '' };
let second = { code: null as number | null, output: '' };

const page = (...parts: string[]): string => readFileSync(path.join(out, ...parts, 'index.html'), 'utf8');
/** The page's text, tags dropped (enough to find words a person reads). */
const text = (html: string): string => html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('building from the store', () => {
  beforeAll(async () => {
    dir = tempDirOnce('agy-store-build-');
    home = path.join(dir, 'home');
    out = path.join(dir, 'dist');
    store = path.join(dir, 'archive.sqlite');
    writeSession(home, SESSION_A, { compact: transcript(0, 99, true), full: transcript(0, 99, false) });
    writeSession(home, SESSION_B, { full: transcript(0, 3, false) });
    const c = writeSession(home, SESSION_C, { full: transcript(0, 2, false) });
    execFileSync('mkfifo', [path.join(c, 'stuck.md')]);
    first = await buildSite({ env: { GEMINI_HOME: home }, outDir: out, store });
    // As Antigravity does: the files now hold a later window, and session B was deleted.
    writeSession(home, SESSION_A, { compact: transcript(60, 159, true), full: transcript(120, 159, false) });
    rmSync(path.join(home, 'antigravity', 'brain', SESSION_B), { recursive: true });
    second = await buildSite({ env: { GEMINI_HOME: home }, outDir: out, store });
  }, 900_000);

  it('both builds succeed and snapshot first', () => {
    expect(first.code, first.output.slice(-3000)).toBe(0);
    expect(second.code, second.output.slice(-3000)).toBe(0);
    expect(first.output).toMatch(/archive: 3 sessions on disk \(3 new/);
    expect(second.output).toMatch(/archive: 2 sessions on disk \(0 new, 1 changed, 1 unchanged.*Kept though no longer on disk: 160 records.*1 session\./s);
  });

  it('has a page for every step 0–159, the first snapshot’s full text for 0–99', () => {
    for (let i = 0; i <= 159; i++) expect(existsSync(path.join(out, 'sessions', SESSION_A, 'steps', String(i), 'index.html')), `step ${i}`).toBe(true);
    for (const i of [1, 42, 99]) {
      const html = page('sessions', SESSION_A, 'steps', String(i));
      expect(html).toContain(`end of step ${i}.`);
      expect(html).not.toContain('class="truncated"');
    }
    // 100–119 exist only as the compact file had them: cut, and marked so.
    const cut = page('sessions', SESSION_A, 'steps', '110');
    expect(cut).toContain('class="truncated"');
    expect(cut).not.toContain('end of step 110.');
    expect(page('sessions', SESSION_A, 'steps', '150')).toContain('end of step 150.');
  });

  it('marks steps no longer on disk on their page, and only those', () => {
    expect(text(page('sessions', SESSION_A, 'steps', '30'))).toMatch(/not on disk since \d{4}-\d\d-\d\d/);
    expect(text(page('sessions', SESSION_A, 'steps', '70'))).not.toMatch(/not on disk since/);
  });

  it('says what was never captured, and that nothing went wrong', () => {
    const session = text(page('sessions', SESSION_A));
    expect(session).toContain('Never captured .system_generated/logs/transcript_full.jsonl : steps 100–119');
    expect(session).toContain('60 steps no longer in the files on disk, kept');
    expect(session).not.toMatch(/read problem/);
    // The one problem of the build is the pipe a snapshot could not read, in its own session.
    const report = text(page('report'));
    expect(report).toMatch(/id="problem-count"|1 problems/);
    expect(report).toContain('stuck.md is not a regular file');
    expect(readFileSync(path.join(out, 'report', 'index.html'), 'utf8')).toMatch(/id="problem-count">1</);
    expect(existsSync(path.join(out, 'sessions', SESSION_C, 'steps', '2', 'index.html'))).toBe(true);
  });

  it('keeps the deleted session, marked on the home page and its own page', () => {
    const home = text(page());
    expect(home).toMatch(/not on disk since \d{4}-\d\d-\d\d/);
    const b = text(page('sessions', SESSION_B));
    expect(b).toMatch(/not on disk since \d{4}-\d\d-\d\d/);
    expect(existsSync(path.join(out, 'sessions', SESSION_B, 'steps', '3', 'index.html'))).toBe(true);
  });

  it('npm run sessions lists it, marked', async () => {
    const { stdout } = await run(process.execPath, [path.join(projectRoot, 'scripts', 'sessions.ts')], {
      cwd: projectRoot,
      env: { ...process.env, GEMINI_HOME: home, BRAIN_ROOTS: '', ARCHIVE_STORE: store },
    });
    const line = stdout.split('\n').find((l) => l.startsWith(SESSION_B.slice(0, 8)));
    expect(line).toMatch(/\[not on disk since \d{4}-\d\d-\d\d \d\d:\d\d\]/);
    expect(stdout.split('\n').find((l) => l.startsWith(SESSION_A.slice(0, 8)))).toMatch(/\s160\s/);
  });

  it('builds one site from two machines’ stores (ARCHIVE_STORES)', async () => {
    const otherHome = path.join(dir, 'other-home');
    const other = path.join(dir, 'other.sqlite');
    writeSession(otherHome, SESSION_A, { compact: transcript(160, 169, true), full: transcript(160, 169, false) });
    writeSession(otherHome, SESSION_D, { full: transcript(0, 4, false) });
    const db = openStore(other);
    await snapshotAll(db, await discoverSessions({ geminiHome: otherHome }));
    db.close();
    const both = path.join(dir, 'dist-both');
    // No brain folder here: the build takes its sessions from the stores alone (not the demo), and snapshots nothing.
    const result = await buildSite({ env: { GEMINI_HOME: path.join(dir, 'nowhere'), ARCHIVE_STORES: `${store}:${other}` }, outDir: both, store: path.join(dir, 'unused.sqlite') });
    expect(result.code, result.output.slice(-3000)).toBe(0);
    expect(result.output).toContain('snapshot: ARCHIVE_STORES is set');
    expect(existsSync(path.join(dir, 'unused.sqlite'))).toBe(false);
    for (const key of ['5', '110', '165']) expect(existsSync(path.join(both, 'sessions', SESSION_A, 'steps', key, 'index.html')), key).toBe(true);
    expect(readFileSync(path.join(both, 'sessions', SESSION_A, 'steps', '5', 'index.html'), 'utf8')).toContain('end of step 5.');
    expect(existsSync(path.join(both, 'sessions', SESSION_D, 'index.html'))).toBe(true);
    expect(text(readFileSync(path.join(both, 'index.html'), 'utf8'))).not.toMatch(/demo/i);
  }, 600_000);
});
