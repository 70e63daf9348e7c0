/**
 * The out dir is the tool's own or nothing (src/lib/build/out-dir.ts): a build into a folder that is not one of
 * this tool's sites stops before any work (exit code 2, the path, why, a hint) and leaves it as it was. On main
 * before this, a folder holding `Documents/thesis.txt` as the out dir of a one-session home lost `Documents` (exit
 * code 0), a file was replaced by the site, and `ARCHIVE_OUT_DIR=~` made a folder named `~` in the project.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTree } from '../helpers/temp.ts';
import { discoveryOptionsFromEnv } from '../../src/lib/brain/index.ts';
import { siteFolders } from '../../src/lib/build/folders.ts';
import { buildStoresFromEnv, storePathFromEnv } from '../../src/lib/store/location.ts';
import { checkBuildFolders, checkOutDir, checkOutDirWhole, expandHome } from '../../src/lib/build/out-dir.ts';
import { recordPublishedSite, siteRecordDir } from '../../src/lib/build/site-record.ts';
import { BuildStop } from '../../src/lib/build/stop.ts';
import { projectRoot } from '../helpers/build-site.ts';

const work = mkdtempSync(path.join(os.tmpdir(), 'agy-out-dir-'));
afterAll(() => removeTree(work));

/** A one-session home: GEMINI_HOME with one brain folder holding one session. */
function oneSessionHome(): string {
  const home = mkdtempSync(path.join(work, 'gemini-'));
  const logs = path.join(home, 'antigravity', 'brain', 'aaaaaaaa-0000-4000-8000-000000000001', '.system_generated', 'logs');
  mkdirSync(logs, { recursive: true });
  writeFileSync(path.join(logs, 'transcript_full.jsonl'), `${JSON.stringify({ step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', content: 'hi' })}\n`);
  return home;
}

/** Run `scripts/build.ts` with `env` (the store and the cache in the temp folder unless given). */
function build(env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(projectRoot, 'scripts', 'build.ts')],
      {
        cwd: projectRoot,
        env: {
          ...process.env,
          BRAIN_ROOTS: '',
          ARCHIVE_STORES: '',
          ARCHIVE_STORE: path.join(work, 'store', 'archive.sqlite'),
          ARCHIVE_CACHE_DIR: path.join(work, 'cache'),
          NO_COLOR: '1',
          ...env,
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** Every file under `dir` with its text. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out[path.relative(dir, path.join(e.parentPath, e.name))] = readFileSync(path.join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

describe('an out dir that is not the tool’s own', () => {
  it('a folder holding Documents/thesis.txt stops the build at once and keeps every file', async () => {
    const home = oneSessionHome();
    const out = path.join(work, 'someones-folder');
    mkdirSync(path.join(out, 'Documents'), { recursive: true });
    writeFileSync(path.join(out, 'Documents', 'thesis.txt'), 'chapter one\n');
    const before = contents(out);
    const r = await build({ GEMINI_HOME: home, ARCHIVE_OUT_DIR: out });
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain(`ARCHIVE_OUT_DIR=${out} (${out}) holds files that are not a site this tool built (Documents;`);
    expect(r.out).toMatch(/\nHint: point ARCHIVE_OUT_DIR at a new or empty folder/);
    expect(contents(out)).toEqual(before);
    // Before any work: nothing snapshotted, no staging folder, no lock beside it.
    expect(existsSync(path.join(work, 'store'))).toBe(false);
    expect(readdirSync(work).filter((n) => n.startsWith('someones-folder.'))).toEqual([]);
  }, 60_000);

  it('an out dir that is a file is refused and left as it was', async () => {
    const file = path.join(work, 'notes.txt');
    writeFileSync(file, 'my notes\n');
    const r = await build({ GEMINI_HOME: oneSessionHome(), ARCHIVE_OUT_DIR: file });
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain('is a file, not a folder');
    expect(readFileSync(file, 'utf8')).toBe('my notes\n');
  }, 60_000);

  it('ARCHIVE_OUT_DIR=~ is the home folder, refused; no folder named ~ appears in the project', async () => {
    const fakeHome = mkdtempSync(path.join(work, 'home-'));
    writeFileSync(path.join(fakeHome, '.bashrc'), 'export PS1=x\n');
    const r = await build({ HOME: fakeHome, GEMINI_HOME: oneSessionHome(), ARCHIVE_OUT_DIR: '~' });
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain(`ARCHIVE_OUT_DIR=~ (${fakeHome}) is the home folder`);
    expect(existsSync(path.join(projectRoot, '~'))).toBe(false);
    expect(readFileSync(path.join(fakeHome, '.bashrc'), 'utf8')).toBe('export PS1=x\n');
  }, 60_000);

  it('a folder of the user’s named like a build folder beside the out dir is refused, not removed', async () => {
    const out = path.join(work, 'site');
    const theirs = `${out}.staging`;
    mkdirSync(theirs, { recursive: true });
    writeFileSync(path.join(theirs, 'draft.md'), 'mine\n');
    const r = await build({ GEMINI_HOME: oneSessionHome(), ARCHIVE_OUT_DIR: out });
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain(`${theirs} is in the way`);
    expect(readFileSync(path.join(theirs, 'draft.md'), 'utf8')).toBe('mine\n');
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});

describe('a mark proves nothing alone (the third robustness probe, issue 27)', () => {
  const site = path.join(work, 'probe-site');
  let home = '';
  beforeAll(async () => {
    home = oneSessionHome();
    const r = await build({ GEMINI_HOME: home, ARCHIVE_OUT_DIR: site });
    expect(r.code, r.out).toBe(0);
  }, 600_000);

  it('a web root that received `cp -a dist/.`, beside its .git/, CNAME and otherapp/, is refused and kept whole', async () => {
    const webRoot = path.join(work, 'www');
    mkdirSync(path.join(webRoot, '.git'), { recursive: true });
    writeFileSync(path.join(webRoot, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(path.join(webRoot, 'CNAME'), 'archive.example.org\n');
    mkdirSync(path.join(webRoot, 'otherapp'));
    writeFileSync(path.join(webRoot, 'otherapp', 'index.html'), '<html>other</html>\n');
    cpSync(`${site}/.`, webRoot, { recursive: true, preserveTimestamps: true });
    const before = contents(webRoot);
    const r = await build({ GEMINI_HOME: home, ARCHIVE_OUT_DIR: webRoot });
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain('holds files that are not a site this tool built');
    expect(r.out).toContain('mark names no build recorded for this folder');
    expect(contents(webRoot)).toEqual(before);
  }, 600_000);

  it('`touch ~/stuff/.agy-archive-build` beside Documents/thesis.txt: refused, nothing removed', async () => {
    const stuff = path.join(work, 'stuff');
    mkdirSync(path.join(stuff, 'Documents'), { recursive: true });
    writeFileSync(path.join(stuff, 'Documents', 'thesis.txt'), 'chapter one\n');
    writeFileSync(path.join(stuff, '.agy-archive-build'), '');
    const before = contents(stuff);
    const r = await build({ GEMINI_HOME: home, ARCHIVE_OUT_DIR: stuff });
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain(`ARCHIVE_OUT_DIR=${stuff} (${stuff}) holds files that are not a site this tool built (.agy-archive-build, Documents;`);
    expect(contents(stuff)).toEqual(before);
  }, 600_000);

  it('a mark edited to "demo":true does not let a demo build replace the real site', async () => {
    const mark = path.join(site, '.agy-archive-build');
    const written = readFileSync(mark, 'utf8');
    writeFileSync(mark, written.replace('"demo":false', '"demo":true'));
    const before = contents(site);
    const emptyHome = mkdtempSync(path.join(work, 'empty-gemini-'));
    const r = await build({ GEMINI_HOME: emptyHome, ARCHIVE_OUT_DIR: site });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain(`${site} holds an archive that is not a demo build: nothing was built`);
    expect(contents(site)).toEqual(before);
    writeFileSync(mark, written);
  }, 600_000);

  it('the site the build recorded is built again; with a file added since, it is refused and the file kept', async () => {
    const again = await build({ GEMINI_HOME: home, ARCHIVE_OUT_DIR: site });
    expect(again.code, again.out).toBe(0);
    writeFileSync(path.join(site, 'CNAME'), 'archive.example.org\n');
    const r = await build({ GEMINI_HOME: home, ARCHIVE_OUT_DIR: site });
    expect(r.code, r.out).toBe(2);
    expect(r.out).toMatch(/build \S+ did not write CNAME\)/);
    expect(readFileSync(path.join(site, 'CNAME'), 'utf8')).toBe('archive.example.org\n');
    rmSync(path.join(site, 'CNAME'));
  }, 600_000);

  it('a file added deep inside: a build with nothing to do leaves it; one with work refuses before publishing', async () => {
    const session = readdirSync(path.join(site, 'sessions'))[0]!;
    const notes = path.join(site, 'sessions', session, 'notes.txt');
    writeFileSync(notes, 'mine\n');
    const before = contents(site);
    // Nothing changed: the build reads only the mark and the top of the out dir, and writes nothing.
    const idle = await build({ GEMINI_HOME: home, ARCHIVE_OUT_DIR: site });
    expect(idle.code, idle.out).toBe(0);
    expect(idle.out).toContain('nothing to do');
    expect(contents(site)).toEqual(before);
    // A session changed: the whole proof (read while Astro renders) finds the file before anything is published; the
    // out dir is as it was and the staging folder is gone.
    const transcript = path.join(home, 'antigravity', 'brain', 'aaaaaaaa-0000-4000-8000-000000000001', '.system_generated', 'logs', 'transcript_full.jsonl');
    appendFileSync(transcript, `${JSON.stringify({ step_index: 1, source: 'MODEL', type: 'PLANNER_RESPONSE', content: 'hello' })}\n`);
    const r = await build({ GEMINI_HOME: home, ARCHIVE_OUT_DIR: site });
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain(`did not write sessions/${session}/notes.txt)`);
    expect(r.out).not.toContain('nothing to do');
    expect(contents(site)).toEqual(before);
    expect(readdirSync(work).filter((n) => n.startsWith('probe-site.') && n !== 'probe-site.lock')).toEqual([]);
    rmSync(notes);
    const rebuilt = await build({ GEMINI_HOME: home, ARCHIVE_OUT_DIR: site });
    expect(rebuilt.code, rebuilt.out).toBe(0);
    expect(rebuilt.out).not.toContain('nothing to do');
  }, 600_000);
});

describe('checkOutDir', () => {
  const home = mkdtempSync(path.join(work, 'user-'));
  const gemini = path.join(home, '.gemini');
  const store = path.join(home, '.local', 'share', 'agy-archive', 'archive.sqlite');
  const root = path.join(work, 'brains', 'brain');
  mkdirSync(path.join(gemini, 'antigravity', 'brain'), { recursive: true });
  mkdirSync(root, { recursive: true });
  const env = { HOME: home, GEMINI_HOME: gemini, BRAIN_ROOTS: root, ARCHIVE_STORE: store };
  const cacheDir = path.join(work, 'cache');
  // A project folder of the test's own: where the clone sits (in the home folder, say) must not change which reason
  // comes first (a clone at ~/agy-archive once made the parent "the home folder", not "holds the project folder").
  const project = path.join(work, 'projects', 'agy-archive');
  mkdirSync(project, { recursive: true });
  /** Both checks a build with work to do makes: `checkOutDir` before the lock, `checkOutDirWhole` before writing. */
  const check = async (outDir: string, given = outDir, whole = true): Promise<string | undefined> => {
    try {
      checkOutDir({ outDir, live: siteFolders(outDir).live, given, projectRoot: project, cacheDir, env });
      if (whole) await checkOutDirWhole({ outDir, live: siteFolders(outDir).live, given, env });
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(BuildStop);
      expect((error as BuildStop).exitCode).toBe(2);
      return (error as BuildStop).message;
    }
  };

  it.each([
    ['/', 'is the root folder'],
    [home, 'is the home folder'],
    [project, 'is the project folder'],
    [path.dirname(project), 'holds the project folder'],
    [gemini, 'is GEMINI_HOME'],
    [path.join(gemini, 'antigravity', 'brain'), 'is inside GEMINI_HOME'],
    [root, 'is a brain root (BRAIN_ROOTS)'],
    [path.dirname(root), 'holds a brain root'],
    [path.dirname(store), "is the archive store's folder"],
    [cacheDir, 'is the cache'],
    [path.join(path.dirname(store), 'sites'), 'is the record of the sites this tool built'],
  ])('refuses %s by name (%s)', async (outDir, why) => {
    expect(await check(outDir)).toContain(why);
  });

  it('accepts an absent and an empty folder, and a site only as its build recorded it', async () => {
    expect(await check(path.join(work, 'absent', 'dist'))).toBeUndefined();
    const empty = path.join(work, 'empty-out');
    mkdirSync(empty);
    expect(await check(empty)).toBeUndefined();
    const site = path.join(work, 'recorded-out');
    mkdirSync(path.join(site, 'sessions'), { recursive: true });
    writeFileSync(path.join(site, '.agy-archive-build'), '{"buildId":"b1","demo":false}\n');
    writeFileSync(path.join(site, 'index.html'), '<html></html>');
    // A mark alone proves nothing: no build with this cache recorded the folder.
    expect(await check(site)).toContain('mark names no build recorded for this folder');
    recordPublishedSite(siteRecordDir(env), site);
    expect(await check(site)).toBeUndefined();
    // A file the build did not write, at the top or deep inside: refused, nothing removed.
    writeFileSync(path.join(site, 'CNAME'), 'example.org\n');
    expect(await check(site)).toContain('holds files that are not a site this tool built (.agy-archive-build, CNAME, index.html, … (4 entries); build b1 did not write CNAME)');
    rmSync(path.join(site, 'CNAME'));
    writeFileSync(path.join(site, 'sessions', 'notes.txt'), 'mine\n');
    expect(await check(site)).toContain('build b1 did not write sessions/notes.txt');
    // Before the lock, only the top is read (a build with nothing to do writes nothing); the whole proof finds it.
    expect(await check(site, site, false)).toBeUndefined();
    expect(readFileSync(path.join(site, 'sessions', 'notes.txt'), 'utf8')).toBe('mine\n');
    rmSync(path.join(site, 'sessions', 'notes.txt'));
    expect(await check(site)).toBeUndefined();
    // A mark naming another build, or a mark that is a symbolic link (to the real mark, even): refused.
    writeFileSync(path.join(site, '.agy-archive-build'), '{"buildId":"b2","demo":false}\n');
    expect(await check(site)).toContain('mark names no build recorded for this folder (the last was b1)');
    const realMark = path.join(work, 'real-mark');
    writeFileSync(realMark, '{"buildId":"b1","demo":false}\n');
    rmSync(path.join(site, '.agy-archive-build'));
    symlinkSync(realMark, path.join(site, '.agy-archive-build'));
    expect(await check(site)).toContain('its .agy-archive-build is a symbolic link');
  });

  it('refuses ~user, which it does not expand, and expands ~ and ~/x', async () => {
    expect(await check(path.join(project, '~bob', 'site'), '~bob/site')).toContain("names another user's home folder");
    expect(expandHome('~', '/h')).toBe('/h');
    expect(expandHome('~/site', '/h')).toBe('/h/site');
    expect(expandHome('a~b', '/h')).toBe('a~b');
  });

  it('expands ~ in the store and input settings too (quoted in a crontab, they reach the build as typed)', () => {
    const env = { HOME: '/h', ARCHIVE_STORE: '~/data/a.sqlite', ARCHIVE_STORES: '~/x.sqlite:/y.sqlite' };
    expect(storePathFromEnv(env)).toBe('/h/data/a.sqlite');
    expect(buildStoresFromEnv(env)).toEqual(['/h/x.sqlite', '/y.sqlite']);
    const home = process.env.HOME || os.homedir();
    expect(discoveryOptionsFromEnv({ GEMINI_HOME: '~/.gemini-work' })).toEqual({ geminiHome: path.join(home, '.gemini-work') });
    expect(discoveryOptionsFromEnv({ BRAIN_ROOTS: '~/a/brain:/b/brain' })).toEqual({ brainRoots: [path.join(home, 'a/brain'), '/b/brain'] });
  });

  it('leaves build folders that carry the mark to the build, and stops at one that does not', () => {
    const out = path.join(work, 'beside', 'dist');
    mkdirSync(`${out}.part-1`, { recursive: true });
    writeFileSync(path.join(`${out}.part-1`, '.agy-archive-scratch'), '');
    mkdirSync(`${out}.previous`, { recursive: true });
    expect(() => checkBuildFolders(siteFolders(out), out, siteRecordDir(env))).not.toThrow();
    mkdirSync(`${out}.old-mine`);
    writeFileSync(path.join(`${out}.old-mine`, 'photo.jpg'), 'x');
    expect(() => checkBuildFolders(siteFolders(out), out, siteRecordDir(env))).toThrow(/dist\.old-mine is in the way/);
    // A site's mark planted beside the photo proves nothing; the old site a build moved aside is its own.
    writeFileSync(path.join(`${out}.old-mine`, '.agy-archive-build'), '{"buildId":"old","demo":false}\n');
    expect(() => checkBuildFolders(siteFolders(out), out, siteRecordDir(env))).toThrow(/dist\.old-mine is in the way/);
    rmSync(`${out}.old-mine`, { recursive: true });
    const oldSite = `${out}.old-0b2c`;
    mkdirSync(oldSite);
    writeFileSync(path.join(oldSite, 'index.html'), '<html></html>');
    writeFileSync(path.join(oldSite, '.agy-archive-build'), '{"buildId":"old","demo":false}\n');
    expect(() => checkBuildFolders(siteFolders(out), out, siteRecordDir(env))).toThrow(/dist\.old-0b2c is in the way/);
    recordPublishedSite(siteRecordDir(env), siteFolders(out).live, oldSite);
    expect(() => checkBuildFolders(siteFolders(out), out, siteRecordDir(env))).not.toThrow();
    writeFileSync(path.join(oldSite, 'thesis.txt'), 'mine\n');
    expect(() => checkBuildFolders(siteFolders(out), out, siteRecordDir(env))).toThrow(/dist\.old-0b2c is in the way/);
  });
});
