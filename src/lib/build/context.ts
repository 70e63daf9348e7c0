/**
 * What every phase of `npm run build` works with: where the site goes, where the caches live, and the environment
 * the render processes get. Read once from the environment, here.
 */
import path from 'node:path';
import { siteFolders, type SiteFolders } from './folders.ts';
import { expandHome } from '../home-path.ts';

/** One build's settings. */
export interface BuildContext {
  projectRoot: string;
  /** `ARCHIVE_OUT_DIR` as given, absolute (default `dist`; `~` and `~/…` expanded): users serve this path. */
  outDir: string;
  /** `ARCHIVE_OUT_DIR` as set, for messages (undefined when unset). */
  outDirSetting: string | undefined;
  /** `ARCHIVE_CACHE_DIR`, absolute (default `node_modules/.cache/agy-archive`). */
  cacheDir: string;
  /** The live site and the folders beside it this build writes. */
  folders: SiteFolders;
  /** The environment of the render processes (paths made absolute; the plan's file added by the plan phase). */
  env: NodeJS.ProcessEnv;
  /** Heap of each render process, MiB (`ARCHIVE_MAX_OLD_SPACE_MB`, default 8192: sized for ~100k pages). */
  heapMb: number;
  /** Extra arguments for `astro build` (those given to `npm run build -- …`). */
  astroArgs: string[];
}

/** Absolute form of a path given relative to where the user ran the command (`~` and `~/…` expanded). */
const absolute = (p: string): string => path.resolve(expandHome(p));

/** The cache folder of a build (ARCHIVE_CACHE_DIR, absolute). */
export function cacheDirOf(projectRoot: string, given: NodeJS.ProcessEnv): string {
  return path.resolve(projectRoot, expandHome(given.ARCHIVE_CACHE_DIR?.trim() || 'node_modules/.cache/agy-archive'));
}

/** The settings of a build from the environment and the command line. */
export function buildContext(projectRoot: string, given: NodeJS.ProcessEnv, astroArgs: string[]): BuildContext {
  // `~` unexpanded (quoted in a crontab or a .env file) once made a folder named `~` in the project.
  const outDir = path.resolve(projectRoot, expandHome(given.ARCHIVE_OUT_DIR?.trim() || 'dist'));
  const cacheDir = cacheDirOf(projectRoot, given);
  const env: NodeJS.ProcessEnv = { ...given, ASTRO_TELEMETRY_DISABLED: '1', ARCHIVE_CACHE_DIR: cacheDir };
  if (env.GEMINI_HOME) env.GEMINI_HOME = absolute(env.GEMINI_HOME);
  if (env.BRAIN_ROOTS) env.BRAIN_ROOTS = env.BRAIN_ROOTS.split(':').map((r) => (r ? absolute(r) : r)).join(':');
  return {
    projectRoot,
    outDir,
    outDirSetting: given.ARCHIVE_OUT_DIR?.trim() || undefined,
    cacheDir,
    folders: siteFolders(outDir),
    env,
    heapMb: Number(given.ARCHIVE_MAX_OLD_SPACE_MB) || 8192,
    astroArgs,
  };
}
