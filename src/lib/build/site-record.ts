/**
 * What proves a folder is a site this tool built. The mark (`.agy-archive-build`) alone proved nothing: any file
 * by that name (empty, any text, a symlink) made a folder "a site this tool built", so a web root that received
 * `cp -a dist/.` lost its `.git/`, `CNAME` and `otherapp/`, `touch ~/stuff/.agy-archive-build` cost
 * `Documents/thesis.txt`, and a mark edited to `"demo":true` let a demo build replace a real site (the third
 * robustness probe, issue 27). So every build that publishes a site records it beside the default archive store
 * (`~/.local/share/agy-archive/sites/`, `siteRecordDir`; not the cache in node_modules, which `npm ci` removes): the
 * out dir, the build id its mark carries, whether it is the demo, and every path it wrote. A folder is this tool's site only when its mark is a plain file naming a build
 * recorded for that very folder and it holds nothing that build did not write (a page it wrote may since be gone or
 * damaged: the next build writes it again); whether it is the demo is read from the record. The old site a swap
 * moves aside is removed on the same proof (`folders.ts`).
 */
import { type Dirent, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readSiteMark } from '../archive/incremental.ts';
import { defaultStorePath } from '../store/location.ts';

/** The site's mark at its top (written by `sealSite` in `incremental.ts`). */
export const SITE_MARK_FILE = '.agy-archive-build';

const RECORD_VERSION = 3;

/**
 * Where the builds of this user record the sites they published: `sites/` in the folder of the default archive
 * store (whatever ARCHIVE_STORE says: the record is the tool's, kept with its data, never in a cache).
 */
export function siteRecordDir(env: NodeJS.ProcessEnv): string {
  return path.join(path.dirname(defaultStorePath(env)), 'sites');
}

/** One build recorded for an out dir (the paths it wrote are in a file of their own, `pathsFile`). */
interface RecordedBuild {
  buildId: string;
  demo: boolean;
}

/**
 * The record of one out dir (its own file, written under that out dir's lock): the builds published into it,
 * newest first. More than the last one: the record is written before the swap, so a build stopped between the two
 * still finds the site it left (the old one, or the new one), and the old site moved aside (`<out dir>.previous`,
 * `.old-<id>`) is known too.
 */
interface SiteRecord {
  version: number;
  outDir: string;
  builds: RecordedBuild[];
}

/** How many builds the record keeps per out dir. */
const BUILDS_KEPT = 3;

/** Whether a folder is a site this tool built, and if so whether it is the demo; else why not. */
export type SiteOwnership = { owned: true; demo: boolean } | { owned: false; why: string };

/** One line of a site's list: its kind (`d` folder, `f` file, `l` link, `o` anything else) and its path. */
const entryLine = (e: Dirent, rel: string): string => `${e.isDirectory() ? 'd' : e.isFile() ? 'f' : e.isSymbolicLink() ? 'l' : 'o'} ${rel}`;

/**
 * Every path under `dir` but the mark, as `d <path>` for a folder, `f <path>` for a file, `l`/`o` for a link or
 * anything else, sorted. Sizes are left out on purpose: a page of the build's emptied or cut short since is the
 * build's to write again (`publish.test.ts`), not a file of someone else's.
 */
function listSite(dir: string): string[] {
  const lines: string[] = [];
  const walk = (rel: string): void => {
    let entries;
    try {
      entries = readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch (error) {
      // An old site being removed in the background (publish.ts) loses folders while it is listed: what is gone
      // holds nothing the build did not write.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (r === SITE_MARK_FILE) continue;
      lines.push(entryLine(e, r));
      if (e.isDirectory()) walk(r);
    }
  };
  walk('');
  return lines.sort();
}

/**
 * `listSite` one folder at a time on the thread pool: the build proves the out dir while Astro renders (110k folders
 * at 100k steps), and a synchronous walk would stall the render process's output and the linking meanwhile.
 */
async function listSiteAsync(dir: string): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // as in listSite
      throw error;
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (r === SITE_MARK_FILE) continue;
      lines.push(entryLine(e, r));
      if (e.isDirectory()) await walk(r);
    }
  };
  await walk('');
  return lines.sort();
}

/** The key of a site in the record: its real path (a symlinked out dir is recorded as the folder it names). */
function siteKey(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 24);

/** The record file of the out dir `key`. */
function recordFile(recordDir: string, key: string): string {
  return path.join(recordDir, `${hashOf(key)}.json`);
}

/** The file listing every path build `buildId` wrote into the out dir `key` (one a line, see `listSite`). */
function pathsFile(recordDir: string, key: string, buildId: string): string {
  return path.join(recordDir, `${hashOf(key)}-${hashOf(buildId)}.txt`);
}

/**
 * The top of that list (the paths with no `/`): the few entries the out dir's own folder holds, so a build can check
 * the top before anything else without reading the whole list (`siteTopOwnership`). Absent for a site recorded
 * before it: the whole list is read instead.
 */
function topFile(recordDir: string, key: string, buildId: string): string {
  return path.join(recordDir, `${hashOf(key)}-${hashOf(buildId)}.top.txt`);
}

/** Write a file whole or not at all. */
function writeWhole(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

function readRecord(recordDir: string, key: string): RecordedBuild[] {
  try {
    const parsed = JSON.parse(readFileSync(recordFile(recordDir, key), 'utf8')) as SiteRecord;
    if (parsed.version === RECORD_VERSION && parsed.outDir === key && Array.isArray(parsed.builds)) return parsed.builds;
  } catch {
    // No build recorded for this out dir yet (a torn file never: written whole, then renamed).
  }
  return [];
}

/**
 * Record the site in `siteDir` (its mark written by `sealSite`), about to be swapped in for the out dir `live`.
 * Called with the cache's build lock held, before the swap: the folder is renamed whole, so its paths are the
 * published site's.
 */
export function recordPublishedSite(recordDir: string, live: string, siteDir: string = live): void {
  const mark = readSiteMark(siteDir);
  if (!mark) throw new Error(`the site at ${siteDir} has no ${SITE_MARK_FILE} mark`);
  const key = siteKey(live);
  const written = listSite(siteDir);
  writeWhole(pathsFile(recordDir, key, mark.buildId), `${written.join('\n')}\n`);
  writeWhole(topFile(recordDir, key, mark.buildId), `${written.filter((line) => !line.includes('/')).join('\n')}\n`);
  const builds = [{ buildId: mark.buildId, demo: mark.demo === true }, ...readRecord(recordDir, key).filter((b) => b.buildId !== mark.buildId)];
  for (const dropped of builds.splice(BUILDS_KEPT)) {
    rmSync(pathsFile(recordDir, key, dropped.buildId), { force: true });
    rmSync(topFile(recordDir, key, dropped.buildId), { force: true });
  }
  writeWhole(recordFile(recordDir, key), `${JSON.stringify({ version: RECORD_VERSION, outDir: key, builds } satisfies SiteRecord)}\n`);
}

/** The build a folder's mark names, when the mark is a plain file naming a build recorded for the out dir `live`. */
function recordedBuildOf(dir: string, recordDir: string, live: string): { key: string; build: RecordedBuild } | { why: string } {
  let stat;
  try {
    stat = lstatSync(path.join(dir, SITE_MARK_FILE));
  } catch {
    return { why: `no ${SITE_MARK_FILE} mark` };
  }
  if (!stat.isFile()) return { why: `its ${SITE_MARK_FILE} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a file'}, not a mark a build wrote` };
  const key = siteKey(live);
  const builds = readRecord(recordDir, key);
  if (builds.length === 0) {
    return { why: `its ${SITE_MARK_FILE} mark names no build recorded for this folder (in ${recordDir})` };
  }
  const mark = readSiteMark(dir);
  const build = builds.find((b) => b.buildId === mark?.buildId);
  if (!build) {
    return { why: `its ${SITE_MARK_FILE} mark names no build recorded for this folder (the last was ${builds[0]!.buildId})` };
  }
  return { key, build };
}

/** Owned when every line of `present` is one build `build` wrote (`written`), else why not. */
function comparedWith(present: string[], written: Set<string>, build: RecordedBuild): SiteOwnership {
  const notWritten = present.filter((line) => !written.has(line)).map((line) => line.slice(2));
  if (notWritten.length > 0) {
    const shown = notWritten.slice(0, 3).join(', ') + (notWritten.length > 3 ? `, … (${notWritten.length})` : '');
    return { owned: false, why: `build ${build.buildId} did not write ${shown}` };
  }
  return { owned: true, demo: build.demo };
}

/**
 * Whether the folder `dir` is a site a build recorded in `recordDir` published into the out dir `live` (by default `dir`
 * itself; the old site moved aside is checked against the out dir it came from) and nobody added to since: its mark
 * a plain file naming a build recorded for that out dir, and every path in it one that build wrote. This reads every
 * folder of the site (110k at 100k steps: ~7 s on this VM), so it is the proof made before anything is removed or
 * published or removed (`siteOwnershipAsync` while the build renders); `siteTopOwnership` is the check made before a
 * build knows whether it has work to do.
 */
export function siteOwnership(dir: string, recordDir: string, live: string = dir): SiteOwnership {
  const recorded = writtenBy(dir, recordDir, live);
  if ('why' in recorded) return { owned: false, why: recorded.why };
  let present: string[];
  try {
    present = listSite(dir);
  } catch (error) {
    return { owned: false, why: `it cannot be read whole (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  return comparedWith(present, recorded.written, recorded.build);
}

/** `siteOwnership`, reading the folder without blocking the build's other work (`listSiteAsync`). */
export async function siteOwnershipAsync(dir: string, recordDir: string, live: string = dir): Promise<SiteOwnership> {
  const recorded = writtenBy(dir, recordDir, live);
  if ('why' in recorded) return { owned: false, why: recorded.why };
  let present: string[];
  try {
    present = await listSiteAsync(dir);
  } catch (error) {
    return { owned: false, why: `it cannot be read whole (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  return comparedWith(present, recorded.written, recorded.build);
}

/** The build a folder's mark names (`recordedBuildOf`) and every path the record says it wrote, else why not. */
function writtenBy(dir: string, recordDir: string, live: string): { build: RecordedBuild; written: Set<string> } | { why: string } {
  const recorded = recordedBuildOf(dir, recordDir, live);
  if ('why' in recorded) return recorded;
  const { key, build } = recorded;
  try {
    return { build, written: new Set(readFileSync(pathsFile(recordDir, key, build.buildId), 'utf8').split('\n')) };
  } catch {
    return { why: `${recordDir} has no list of what build ${build.buildId} wrote` };
  }
}

/**
 * `siteOwnership` for the folder's own entries only: the mark is a plain file naming a build recorded for this out
 * dir, and the folder itself holds nothing that build did not write (a `.git/` or `CNAME` put beside the site, a
 * site copied into a web root). What lies deeper is proved by `siteOwnership` before the build writes or removes
 * anything; a build with nothing to do writes nothing, so it does not read the site's 110k folders (issue 32: 7.76 s
 * of a nothing-changed rebuild at 100k steps, 0.85 s before the proof).
 */
export function siteTopOwnership(dir: string, recordDir: string, live: string = dir): SiteOwnership {
  const recorded = recordedBuildOf(dir, recordDir, live);
  if ('why' in recorded) return { owned: false, why: recorded.why };
  const { key, build } = recorded;
  let written: Set<string>;
  try {
    written = new Set(readFileSync(topFile(recordDir, key, build.buildId), 'utf8').split('\n'));
  } catch {
    try {
      // Recorded before the top had a file of its own: its lines are in the whole list.
      written = new Set(readFileSync(pathsFile(recordDir, key, build.buildId), 'utf8').split('\n').filter((line) => !line.includes('/')));
    } catch {
      return { owned: false, why: `${recordDir} has no list of what build ${build.buildId} wrote` };
    }
  }
  let present: string[];
  try {
    present = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.name !== SITE_MARK_FILE)
      .map((e) => entryLine(e, e.name));
  } catch (error) {
    return { owned: false, why: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  return comparedWith(present.sort(), written, build);
}
