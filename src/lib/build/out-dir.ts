/**
 * The out dir is the tool's own or nothing. The publish phase swaps a new site in for the out dir and removes the
 * old one, so an out dir pointed at anything else (a home folder, the project, GEMINI_HOME, the store's folder) once
 * had its contents removed in the background, with exit code 0; a file was replaced too, and `ARCHIVE_OUT_DIR=~`
 * made a folder named `~` in the project. So before any work (before the lock, the snapshot or Astro), the out dir
 * must be absent, an empty folder, or a site this tool built (proved by its mark and the tool's record of it,
 * `site-record.ts`: a mark alone, beside files the build did not write, or a link, is refused); and whatever it holds,
 * a folder the build reads or keeps (the root, the home folder, the project, GEMINI_HOME, a brain root, the store's
 * folder, the cache, a joined part) or one holding such a folder is refused by name. Of a site, only the mark and the
 * folder's own entries are read then (`checkOutDir`); its whole tree once the build has work to do, while it renders
 * into its staging folder and before it publishes (`checkOutDirWhole`): reading the tree first made a rebuild with
 * nothing to do take 7.76 s at 100k steps instead of 0.85 s (BENCHMARKS.md, 5479117), for a build that writes nothing.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expandHome } from '../home-path.ts';
import { joinFolders } from '../join/env.ts';
import { defaultStorePath, storePathFromEnv, buildStoresFromEnv } from '../store/location.ts';
import { isOwnFolder, type SiteFolders } from './folders.ts';
import { buildFoldersPresent } from './publish.ts';
import { SITE_MARK_FILE, type SiteOwnership, siteOwnershipAsync, siteRecordDir, siteTopOwnership } from './site-record.ts';
import { BuildStop } from './stop.ts';

export { expandHome };

/** Exit code of a build stopped by a setting it cannot use (README, "Exit codes"). */
export const SETTING_EXIT_CODE = 2;

/** The hint every refusal ends with: there is no `--force`, another folder is the way. */
const PICK_ANOTHER = 'point ARCHIVE_OUT_DIR at a new or empty folder (the default is dist/ in the project); the build never writes into a folder it did not make.';

/** A folder the out dir must not be, and how close it may come. */
interface Guarded {
  /** What the folder is, for the message (`the home folder`, `GEMINI_HOME`). */
  what: string;
  path: string;
  /** True when the out dir may not be inside it either (data this tool reads: building into it mixes the two). */
  noneInside: boolean;
}

/** Both spellings of a path: as given (absolute) and with its symlinks resolved, when it exists. */
function spellings(p: string): string[] {
  const abs = path.resolve(p);
  try {
    const real = realpathSync(abs);
    return real === abs ? [abs] : [abs, real];
  } catch {
    return [abs];
  }
}

const within = (child: string, parent: string): boolean =>
  child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);

/** The folders the out dir may be none of (nor hold), from the build's settings. */
function guardedFolders(projectRoot: string, cacheDir: string, env: NodeJS.ProcessEnv): Guarded[] {
  const home = env.HOME || os.homedir();
  const guarded: Guarded[] = [
    { what: 'the root folder', path: path.parse(projectRoot).root, noneInside: false },
    { what: 'the home folder', path: home, noneInside: false },
    { what: 'the home folder', path: os.homedir(), noneInside: false },
    { what: 'the project folder', path: projectRoot, noneInside: false },
    { what: 'the cache (ARCHIVE_CACHE_DIR)', path: cacheDir, noneInside: true },
  ];
  const geminiHome = env.GEMINI_HOME?.trim();
  guarded.push({ what: 'GEMINI_HOME', path: expandHome(geminiHome || '~/.gemini', home), noneInside: true });
  for (const root of (env.BRAIN_ROOTS ?? '').split(':').map((r) => r.trim()).filter(Boolean)) {
    guarded.push({ what: 'a brain root (BRAIN_ROOTS)', path: expandHome(root, home), noneInside: true });
  }
  const stores = [defaultStorePath(env), ...buildStoresFromEnv(env)];
  try {
    const store = storePathFromEnv(env);
    if (store) stores.push(store);
  } catch {
    // Under a test that gave no ARCHIVE_STORE: the snapshot phase says so.
  }
  for (const store of stores) guarded.push({ what: "the archive store's folder", path: path.dirname(store), noneInside: false });
  guarded.push({ what: "the record of the sites this tool built", path: siteRecordDir(env), noneInside: true });
  for (const part of joinFolders(env)) guarded.push({ what: 'a joined part (ARCHIVE_JOIN)', path: part, noneInside: true });
  return guarded;
}

/**
 * Stop the build (a `BuildStop`, exit code 2) unless `outDir` may be built into: absent, an empty folder, or a site
 * this tool built, and none of the folders the build reads or keeps. `given` is ARCHIVE_OUT_DIR as set (for `~user`).
 */
export function checkOutDir(
  options: { outDir: string; live: string; given: string | undefined; projectRoot: string; cacheDir: string; env: NodeJS.ProcessEnv },
): void {
  const { outDir, live, given, projectRoot, cacheDir, env } = options;
  const refuse: Refuse = refusal(outDir, given);
  if (given?.trim().startsWith('~') && !/^~(\/|$)/.test(given.trim())) {
    refuse('names another user\'s home folder (~user), which the build does not expand', 'give ARCHIVE_OUT_DIR as an absolute path.');
  }
  const outs = [...new Set([...spellings(outDir), live])];
  for (const guard of guardedFolders(projectRoot, cacheDir, env)) {
    for (const g of spellings(guard.path)) {
      for (const out of outs) {
        if (out === g) refuse(`is ${guard.what}`);
        if (within(g, out)) refuse(`holds ${guard.what} (${g}), which publishing the site would move away`);
        if (guard.noneInside && within(out, g)) refuse(`is inside ${guard.what} (${g}), which the build reads`);
      }
    }
  }
  let stat;
  try {
    stat = lstatSync(live);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // the first build makes it
    refuse(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (stat.isSymbolicLink()) {
    // `live` is the link's target already; a dangling link is a link to nowhere, not a folder to replace.
    try {
      stat = statSync(live);
    } catch {
      refuse('is a symbolic link to nothing');
    }
  }
  if (!stat.isDirectory()) refuse('is a file, not a folder');
  let names: string[];
  try {
    names = readdirSync(live);
  } catch (error) {
    refuse(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (names.length === 0) return;
  refuseUnlessOwned(siteTopOwnership(live, siteRecordDir(env)), names, refuse);
}

/** Stops the build refusing ARCHIVE_OUT_DIR (exit code 2): the setting, the path, why, and a hint. */
type Refuse = (why: string, hint?: string) => never;

/** The `Refuse` of one out dir. */
function refusal(outDir: string, given: string | undefined): Refuse {
  return (why, hint = PICK_ANOTHER) => {
    throw new BuildStop(`ARCHIVE_OUT_DIR=${given ?? 'dist'} (${outDir}) ${why}: nothing was built and nothing was changed.`, hint, {
      exitCode: SETTING_EXIT_CODE,
    });
  };
}

/** Refuse an out dir holding `names` unless `ownership` proved it a site this tool built. */
function refuseUnlessOwned(ownership: SiteOwnership, names: string[], refuse: Refuse): void {
  if (ownership.owned) return;
  const shown = [...names].sort().slice(0, 3).join(', ') + (names.length > 3 ? `, … (${names.length} entries)` : '');
  refuse(
    `holds files that are not a site this tool built (${shown}; ${ownership.why}), and publishing would remove them`,
    names.includes(SITE_MARK_FILE)
      ? `${PICK_ANOTHER} If it is a site an earlier build made and its record is gone (another user, a cleared data folder, a ` +
        'build older than the record), delete the folder yourself: the build does not take a mark on trust.'
      : PICK_ANOTHER,
  );
}

/**
 * The whole proof, made once a build knows it has work to do, while it renders into its own staging folder, and
 * awaited before it publishes or removes anything (`scripts/build.ts`): every path in the out dir is one the
 * recorded build wrote (`siteOwnership`), however deep. Made before the render, it was ~1.9 s of a 20k-step rebuild
 * with one new session on the critical path (load 13), ~5x that at 100k. `checkOutDir` checked the rest before the
 * lock; a build with nothing to do writes nothing and stops before this.
 */
export async function checkOutDirWhole(options: { outDir: string; live: string; given: string | undefined; env: NodeJS.ProcessEnv }): Promise<void> {
  const { outDir, live, given, env } = options;
  const refuse: Refuse = refusal(outDir, given);
  let names: string[];
  try {
    names = readdirSync(live);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // the first build makes it
    refuse(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (names.length === 0) return;
  refuseUnlessOwned(await siteOwnershipAsync(live, siteRecordDir(env)), names, refuse);
}

/**
 * Stop the build (exit code 2) when a folder beside the out dir has a name the build writes and removes
 * (`<out dir>.staging`, `.reused`, `.previous`, `.part-<n>`, `.old-<id>`) but was not made by it.
 */
export function checkBuildFolders(folders: SiteFolders, given: string | undefined, recordDir: string): void {
  for (const dir of buildFoldersPresent(folders)) {
    // The top of an old site only, like the out dir's (`checkOutDir`): it is removed only on the whole proof
    // (`clearBuildFolders`), and a build with nothing to do leaves it.
    if (isOwnFolder(dir, (site) => siteTopOwnership(site, recordDir, folders.live).owned)) continue;
    throw new BuildStop(
      `${dir} is in the way: a build of ARCHIVE_OUT_DIR=${given ?? 'dist'} writes and removes a folder by that name, and this one ` +
        'was not made by it: nothing was built and nothing was changed.',
      `move ${dir} elsewhere, or ${PICK_ANOTHER}`,
      { exitCode: SETTING_EXIT_CODE },
    );
  }
}
