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
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
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
      lines.push(`${e.isDirectory() ? 'd' : e.isFile() ? 'f' : e.isSymbolicLink() ? 'l' : 'o'} ${r}`);
      if (e.isDirectory()) walk(r);
    }
  };
  walk('');
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
  writeWhole(pathsFile(recordDir, key, mark.buildId), `${listSite(siteDir).join('\n')}\n`);
  const builds = [{ buildId: mark.buildId, demo: mark.demo === true }, ...readRecord(recordDir, key).filter((b) => b.buildId !== mark.buildId)];
  for (const dropped of builds.splice(BUILDS_KEPT)) rmSync(pathsFile(recordDir, key, dropped.buildId), { force: true });
  writeWhole(recordFile(recordDir, key), `${JSON.stringify({ version: RECORD_VERSION, outDir: key, builds } satisfies SiteRecord)}\n`);
}

/**
 * Whether the folder `dir` is a site a build recorded in `recordDir` published into the out dir `live` (by default `dir`
 * itself; the old site moved aside is checked against the out dir it came from) and nobody added to since: its mark
 * a plain file naming a build recorded for that out dir, and every path in it one that build wrote.
 */
export function siteOwnership(dir: string, recordDir: string, live: string = dir): SiteOwnership {
  let stat;
  try {
    stat = lstatSync(path.join(dir, SITE_MARK_FILE));
  } catch {
    return { owned: false, why: `no ${SITE_MARK_FILE} mark` };
  }
  if (!stat.isFile()) return { owned: false, why: `its ${SITE_MARK_FILE} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a file'}, not a mark a build wrote` };
  const key = siteKey(live);
  const builds = readRecord(recordDir, key);
  if (builds.length === 0) {
    return { owned: false, why: `its ${SITE_MARK_FILE} mark names no build recorded for this folder (in ${recordDir})` };
  }
  const mark = readSiteMark(dir);
  const build = builds.find((b) => b.buildId === mark?.buildId);
  if (!build) {
    return { owned: false, why: `its ${SITE_MARK_FILE} mark names no build recorded for this folder (the last was ${builds[0]!.buildId})` };
  }
  let written: Set<string>;
  try {
    written = new Set(readFileSync(pathsFile(recordDir, key, build.buildId), 'utf8').split('\n'));
  } catch {
    return { owned: false, why: `${recordDir} has no list of what build ${build.buildId} wrote` };
  }
  let present: string[];
  try {
    present = listSite(dir);
  } catch (error) {
    return { owned: false, why: `it cannot be read whole (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  const notWritten = present
    .filter((line) => !written.has(line))
    .map((line) => line.slice(2));
  if (notWritten.length > 0) {
    const shown = notWritten.slice(0, 3).join(', ') + (notWritten.length > 3 ? `, … (${notWritten.length})` : '');
    return { owned: false, why: `build ${build.buildId} did not write ${shown}` };
  }
  return { owned: true, demo: build.demo };
}
