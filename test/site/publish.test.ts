/**
 * The site on disk is never worse than before a build (scripts/build.ts, src/lib/build/), on real builds in a temp
 * folder: a build whose render process is killed (SIGKILL) leaves the previous site byte for byte; two builds
 * started at once both end well, one after the other, with no empty page and every page in the search index; a
 * page emptied in the live site is rendered again, not reused; a GEMINI_HOME holding no brain folder stops the build
 * before it replaces a real archive with the demo, and builds the demo into an empty out dir.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTree } from '../helpers/temp.ts';
import type { ArchiveInputs } from '../../src/lib/archive/inputs.ts';
import { siteFolders } from '../../src/lib/build/folders.ts';
import { outDirHolds, refuseDemoOverArchive } from '../../src/lib/build/inputs.ts';
import { recoverInterruptedSwap } from '../../src/lib/build/publish.ts';
import { recordPublishedSite, siteRecordDir } from '../../src/lib/build/site-record.ts';
import { buildSite, projectRoot, startBuild } from '../helpers/build-site.ts';
import { demoBuild } from '../helpers/homes.ts';
import { htmlFiles } from '../helpers/site-files.ts';

const OLD = 'e08e5d5e-3fdf-42fd-b1cb-0e2f06167eb0';
const TOUCHED = 'e69b7648-138c-43cd-a6c0-5bbfeaba62aa';

const work = mkdtempSync(path.join(os.tmpdir(), 'agy-publish-'));
const home = path.join(work, 'home');
const outDir = path.join(work, 'dist');
const cacheDir = path.join(work, 'cache');
const options = (env: Record<string, string> = {}) => ({ env: { GEMINI_HOME: home, ...env }, outDir, cacheDir });
const build = (env: Record<string, string> = {}) => buildSite(options(env));

/** Every file of a folder with the hash of its bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    out[path.relative(dir, file)] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return out;
}

/**
 * What builds left beside the out dir, but its lock file (staging, part, reused or previous folders), once the old
 * sites removed in the background after a swap (`dist.old-<id>`) are gone (waits up to a minute for them).
 */
async function leftovers(): Promise<string[]> {
  const left = (): string[] => readdirSync(work).filter((name) => name.startsWith('dist.') && name !== 'dist.lock');
  for (let waited = 0; waited < 60_000 && left().some((name) => name.startsWith('dist.old-')); waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return left();
}

/** Make the next build render one session again (its transcript looks newer). */
function touchSession(id: string): void {
  const logs = path.join(home, 'antigravity', 'brain', id, '.system_generated', 'logs');
  const future = new Date(Date.now() + 60_000 + Math.random() * 60_000);
  for (const name of readdirSync(logs)) utimesSync(path.join(logs, name), future, future);
}

/** The pids of the direct children of `pid` (Linux: /proc). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Whether process `pid` has ended (no longer in /proc, or a zombie nobody reaped yet). */
function gone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Every page URL of the search index (all shards; fragments are gzip, a `pagefind_dcd` tag, then JSON). */
function indexedUrls(dir: string): Set<string> {
  const urls = new Set<string>();
  for (const rel of readdirSync(path.join(dir, 'pagefind'), { recursive: true }) as string[]) {
    if (!rel.endsWith('.pf_fragment')) continue;
    const text = gunzipSync(readFileSync(path.join(dir, 'pagefind', rel))).toString('utf8');
    urls.add((JSON.parse(text.slice(text.indexOf('{'))) as { url: string }).url);
  }
  return urls;
}

/** The URL of every page with a search body (those the index must hold). */
function searchablePages(dir: string): Set<string> {
  return new Set(
    htmlFiles(dir)
      .filter((rel) => readFileSync(path.join(dir, rel), 'utf8').includes('data-pagefind-body'))
      .map((rel) => `/${rel.replace(/index\.html$/, '')}`),
  );
}

/** The pages the cold build's index holds (Pagefind leaves out a page whose body has no text, e.g. an empty
 * CONVERSATION_HISTORY step, so the index is compared with a whole build's, not with every page that has a body). */
let coldIndexed: string[] = [];

/** How many sessions the demo home holds (every `<product>/brain/<uuid>/` folder). */
const demoSessions = readdirSync(path.join(projectRoot, 'fixtures', 'demo'), { withFileTypes: true })
  .filter((product) => product.isDirectory())
  .flatMap((product) => {
    try {
      return readdirSync(path.join(projectRoot, 'fixtures', 'demo', product.name, 'brain'), { withFileTypes: true }).filter((d) => d.isDirectory());
    } catch {
      return [];
    }
  }).length;

beforeAll(async () => {
  expect(demoSessions).toBeGreaterThan(1);
  cpSync(path.join(projectRoot, 'fixtures', 'demo'), home, { recursive: true, preserveTimestamps: true });
  const cold = await build();
  expect(cold.code, cold.output.slice(-2000)).toBe(0);
  coldIndexed = [...indexedUrls(outDir)].sort();
}, 300_000);
afterAll(() => removeTree(work));

describe('a build that fails', () => {
  it.skipIf(process.platform !== 'linux')('leaves the previous site byte for byte when its render process is killed', async () => {
    const before = snapshot(outDir);
    touchSession(TOUCHED);
    const started = startBuild(options());
    // Wait until Astro writes pages into the staging folder, then kill it: a real failure half-way.
    const pages = path.join(`${outDir}.staging`, 'sessions');
    const deadline = Date.now() + 120_000;
    let killed = false;
    while (!killed && Date.now() < deadline) {
      try {
        if (readdirSync(pages).length > 0) {
          for (const pid of childrenOf(started.child.pid as number)) process.kill(pid, 'SIGKILL');
          killed = true;
        }
      } catch {
        // Not there yet.
      }
      await sleep(20);
    }
    const result = await started.result;
    expect(killed, result.output.slice(-2000)).toBe(true);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('was stopped by SIGKILL');
    expect(result.output).toContain(`the site in ${outDir} was left as it was`);
    expect(snapshot(outDir)).toEqual(before);
    expect(await leftovers()).toEqual([]);
    // That the next build still reuses the live site's unchanged sessions (a failed build leaves the manifest valid)
    // is checked once, after the next test's failed build too: one Astro start (seconds) fewer.
  }, 300_000);
});

describe('a build killed outright', () => {
  it.skipIf(process.platform !== 'linux')('leaves the site, stops its render process, and does not block the next build', async () => {
    const before = snapshot(outDir);
    touchSession(TOUCHED);
    const started = startBuild(options());
    const pages = path.join(`${outDir}.staging`, 'sessions');
    const deadline = Date.now() + 120_000;
    let renderers: number[] = [];
    while (renderers.length === 0 && Date.now() < deadline) {
      try {
        if (readdirSync(pages).length > 0) renderers = childrenOf(started.child.pid as number);
      } catch {
        // Not there yet.
      }
      if (renderers.length === 0) await sleep(20);
    }
    expect(renderers.length).toBeGreaterThan(0);
    // SIGKILL: the build can neither clean up nor release its lock itself.
    started.child.kill('SIGKILL');
    await started.result;
    // Its render process ends too (its next line of output finds no reader; in a quiet phase, the orphan guard sees
    // its parent gone), rather than write on into the staging folder.
    const until = Date.now() + 4_000;
    while (!renderers.every(gone) && Date.now() < until) await sleep(100);
    expect(renderers.filter((pid) => !gone(pid))).toEqual([]);
    expect(snapshot(outDir)).toEqual(before);

    // The next build is not blocked, and reuses the unchanged sessions after this failed build and the one before.
    const next = await build();
    expect(next.code, next.output.slice(-2000)).toBe(0);
    expect(next.output).not.toContain('waiting for it to finish');
    expect(next.output).toContain(`reused pages of ${demoSessions - 1} unchanged sessions, rendering 1`);
    expect(await leftovers()).toEqual([]);
  }, 300_000);
});

describe('a build killed between the two renames of the swap', () => {
  it('gets the old site put back by the next build', () => {
    const dir = mkdtempSync(path.join(work, 'swap-'));
    const folders = siteFolders(path.join(dir, 'site'));
    mkdirSync(folders.previous, { recursive: true });
    writeFileSync(path.join(folders.previous, 'index.html'), '<html></html>\n');
    expect(recoverInterruptedSwap(folders)).toContain('put back');
    expect(readFileSync(path.join(folders.live, 'index.html'), 'utf8')).toBe('<html></html>\n');
    // With the out dir there, nothing to do.
    expect(recoverInterruptedSwap(folders)).toBeUndefined();
  });
});

// One pair of builds for two things (each build is an Astro start of seconds): two builds at once, and a live
// site with an emptied page.
describe('two builds started at once, over a live site with one page emptied', () => {
  it('both end well, one after the other; no page is empty and the index holds every page', async () => {
    const emptied = path.join(outDir, 'sessions', OLD, 'steps', '1', 'index.html');
    truncateSync(emptied, 0);
    // A build with nothing to do leaves the out dir as it is without reading it (README): another session changed.
    touchSession(TOUCHED);
    const [a, b] = await Promise.all([build(), build()]);
    expect(a.code, a.output.slice(-2000)).toBe(0);
    expect(b.code, b.output.slice(-2000)).toBe(0);
    const waiter = [a, b].find((r) => r.output.includes('waiting for it to finish'));
    expect(waiter, `${a.output}\n---\n${b.output}`).toBeDefined();
    expect(waiter?.output).toContain(`another build is using the out dir ${outDir}`);
    // The one that waited planned after the other finished: nothing left to do.
    expect(waiter?.output).toContain('incremental: nothing to do');
    // The other rendered the emptied page's session again, not reused it, beside the changed one.
    const first = a === waiter ? b : a;
    expect(first.output).toContain(`reused pages of ${demoSessions - 2} unchanged sessions, rendering 2`);
    expect(readFileSync(emptied, 'utf8')).toMatch(/<\/html>\s*$/);
    const empty = htmlFiles(outDir).filter((rel) => statSync(path.join(outDir, rel)).size === 0);
    expect(empty).toEqual([]);
    const searchable = searchablePages(outDir);
    // One search document per turn and each artifact page (issue 23): ~20 for the demo home.
    expect(searchable.size).toBeGreaterThan(10);
    const indexed = [...indexedUrls(outDir)].sort();
    expect(indexed).toEqual(coldIndexed);
    expect(indexed.filter((url) => !searchable.has(url))).toEqual([]);
    expect(await leftovers()).toEqual([]);
  }, 300_000);
});

describe('a GEMINI_HOME that holds no brain folder', () => {
  const aFile = path.join(work, 'a-file');
  const missing = path.join(work, 'no-such-folder');
  const emptyFolder = path.join(work, 'empty-home');
  beforeAll(() => {
    writeFileSync(aFile, 'not a folder\n');
    mkdirSync(emptyFolder, { recursive: true });
  });

  it.each([
    ['a file', aFile, 'is a file, not a folder'],
    ['missing', missing, 'does not exist'],
    ['an empty folder', emptyFolder, 'is an empty folder'],
  ])('stops when it is %s and the out dir holds a real archive, which is left intact', async (_, geminiHome, why) => {
    const before = snapshot(outDir);
    const result = await build({ GEMINI_HOME: geminiHome });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`No brain folder found (GEMINI_HOME=${geminiHome} ${why})`);
    expect(result.output).toContain(`Hint: set GEMINI_HOME to the folder holding <product>/brain/`);
    expect(result.output).toContain(`delete ${outDir}`);
    expect(snapshot(outDir)).toEqual(before);
    expect(await leftovers()).toEqual([]);
  }, 120_000);

  it('builds the demo into an empty out dir, saying loudly which GEMINI_HOME held nothing', async () => {
    // The shared demo build: GEMINI_HOME is an empty folder, the out dir a fresh one.
    const demo = await demoBuild();
    expect(demo.code, demo.output.slice(-2000)).toBe(0);
    expect(demo.output).toMatch(/!!! No brain folder found \(GEMINI_HOME=\S+ is an empty folder\)\. Building the DEMO archive/);
    expect(outDirHolds(demo.outDir, siteRecordDir(process.env))).toBe('demo');
  }, 900_000);

  it('lets a demo build replace a demo build or fill an empty folder, never anything else', () => {
    const demoInputs = { isDemo: true, noRootReason: `GEMINI_HOME=${missing} does not exist` } as ArchiveInputs;
    const dir = mkdtempSync(path.join(work, 'guard-'));
    const records = path.join(work, 'guard-records');
    expect(() => refuseDemoOverArchive(demoInputs, path.join(dir, 'absent'), records)).not.toThrow();
    expect(() => refuseDemoOverArchive(demoInputs, dir, records)).not.toThrow();
    // A site recorded as a demo build (what a demo build's publish records), then as a real one.
    writeFileSync(path.join(dir, 'index.html'), '<html>demo</html>\n');
    writeFileSync(path.join(dir, '.agy-archive-build'), '{"buildId":"x","demo":true}\n');
    recordPublishedSite(records, dir);
    expect(() => refuseDemoOverArchive(demoInputs, dir, records)).not.toThrow();
    writeFileSync(path.join(dir, '.agy-archive-build'), '{"buildId":"y","demo":false}\n');
    recordPublishedSite(records, dir);
    expect(() => refuseDemoOverArchive(demoInputs, dir, records)).toThrow(`GEMINI_HOME=${missing} does not exist`);
    // The real site's mark edited to say demo: the record says otherwise (the probe's repro, issue 27).
    writeFileSync(path.join(dir, '.agy-archive-build'), '{"buildId":"y","demo":true}\n');
    expect(() => refuseDemoOverArchive(demoInputs, dir, records)).toThrow(/holds an archive that is not a demo build/);
    // An older build's mark (the id alone) naming no recorded build, a mark no build recorded, or a folder of other
    // files: kept.
    writeFileSync(path.join(dir, '.agy-archive-build'), 'z\n');
    expect(() => refuseDemoOverArchive(demoInputs, dir, records)).toThrow(/holds an archive that is not a demo build/);
    writeFileSync(path.join(dir, '.agy-archive-build'), '{"buildId":"x","demo":true}\n');
    expect(() => refuseDemoOverArchive(demoInputs, dir, path.join(work, 'other-records'))).toThrow(/not a demo build/);
    rmSync(path.join(dir, '.agy-archive-build'));
    writeFileSync(path.join(dir, 'notes.txt'), 'mine\n');
    expect(() => refuseDemoOverArchive(demoInputs, dir, records)).toThrow(/Hint|not a demo build/);
    // Real sessions found: never stopped.
    expect(() => refuseDemoOverArchive({ ...demoInputs, isDemo: false }, dir, records)).not.toThrow();
  });
});
