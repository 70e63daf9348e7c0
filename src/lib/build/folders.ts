/**
 * The folders one build uses beside the out dir. They sit beside it, not inside it or in the cache, so that every
 * move between them is a rename within one file system (atomic, no copy) and the out dir itself can be swapped.
 */
import { existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The mark of a folder a build made beside the out dir (staging, render parts, reused links): a build removes only
 * folders it made, so one a user named `dist.staging` is never removed. A site this tool built carries its own
 * mark (`.agy-archive-build`, `incremental.ts`), and so do the old sites moved aside by the swap.
 */
export const SCRATCH_MARK = '.agy-archive-scratch';
/** The site's mark (`readSiteMark` in `incremental.ts` reads it). */
const SITE_MARK = '.agy-archive-build';

/** Make a folder for the build and mark it as the build's own (see `SCRATCH_MARK`). */
export function makeScratchFolder(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, SCRATCH_MARK), 'made by an agy-archive build; removed by the next one\n');
}

/**
 * Whether `dir` is absent, empty, carries the mark of a folder this tool made, or is a site this tool built (an old
 * site the swap moved aside): only such are removed. A site's mark proves nothing alone (a planted one cost a
 * folder its files, issue 27): `isRecordedSite` checks it against the cache's record (`site-record.ts`).
 */
export function isOwnFolder(dir: string, isRecordedSite: (dir: string) => boolean): boolean {
  if (!existsSync(dir)) return true;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  return names.length === 0 || names.includes(SCRATCH_MARK) || (names.includes(SITE_MARK) && isRecordedSite(dir));
}

/** Where a build into one out dir writes. */
export interface SiteFolders {
  /** `ARCHIVE_OUT_DIR` (symlinks resolved): the site users serve. Only the publish phase ever changes it. */
  live: string;
  /** `<live>.staging`: the new site, written by render part 0 and the search step, then renamed to `live`. */
  staging: string;
  /** `<live>.reused`: hard links of the unchanged sessions' folders of the live site, set aside for the new one. */
  reused: string;
  /** `<live>.previous`: the old site for the moment of the swap, then removed. */
  previous: string;
  /** `<live>.lock`: the lock file of the out dir (see `lock.ts`). */
  lock: string;
  /** `<live>.part-<n>`: the out dir of render part `n` of a split build (`staging` for part 0). */
  part(n: number): string;
}

/**
 * The folders of a build into `outDir` (absolute). A symlinked out dir is followed: its target is the folder
 * swapped, so the link users point a server at stays a link.
 */
export function siteFolders(outDir: string): SiteFolders {
  let live = outDir;
  try {
    live = realpathSync(outDir);
  } catch {
    // Not there yet (the first build creates it): its parent's real path, so that the next build names it alike.
    try {
      live = path.join(realpathSync(path.dirname(outDir)), path.basename(outDir));
    } catch {
      // Neither is its parent.
    }
  }
  return {
    live,
    staging: `${live}.staging`,
    reused: `${live}.reused`,
    previous: `${live}.previous`,
    lock: `${live}.lock`,
    part: (n) => (n === 0 ? `${live}.staging` : `${live}.part-${n}`),
  };
}
