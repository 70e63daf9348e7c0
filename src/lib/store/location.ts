/**
 * Where the archive store lives: `ARCHIVE_STORE` (a path, or `none` for no store: read the folders as before), else
 * the platform's place for user data: `$XDG_DATA_HOME/agy-archive/archive.sqlite` (`~/.local/share/…` when unset)
 * on Linux and the BSDs, `~/Library/Application Support/agy-archive/archive.sqlite` on macOS, `%LOCALAPPDATA%` on
 * Windows. `ARCHIVE_STORES` (`:`-separated) names stores to build from, read-only, instead.
 */
import os from 'node:os';
import path from 'node:path';
import { expandHome } from '../home-path.ts';

/** The store file's name inside the data folder. */
export const STORE_FILE_NAME = 'archive.sqlite';

/** The default store path for this platform and environment. */
export function defaultStorePath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'agy-archive', STORE_FILE_NAME);
  if (platform === 'win32') {
    return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'agy-archive', STORE_FILE_NAME);
  }
  const xdg = env.XDG_DATA_HOME?.trim();
  // The XDG spec: a relative XDG_DATA_HOME is invalid and ignored.
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share');
  return path.join(base, 'agy-archive', STORE_FILE_NAME);
}

/** The store this process writes, or `undefined` for `ARCHIVE_STORE=none`. */
export function storePathFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env.ARCHIVE_STORE?.trim();
  if (given && given.toLowerCase() === 'none') return undefined;
  if (given) return path.resolve(expandHome(given, env.HOME || os.homedir()));
  // Tests never touch the user's real store: a test (or a build it started, which inherits VITEST) that reaches the
  // default location has forgotten ARCHIVE_STORE, which once let a loader test list a store a hand-made build had left.
  if (process.env.VITEST) throw new Error('a test reached the default archive store; give it ARCHIVE_STORE (a temporary path, or none)');
  return defaultStorePath(env);
}

/** The stores a build reads, from `ARCHIVE_STORES` (`:`-separated); empty when unset. */
export function buildStoresFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.ARCHIVE_STORES ?? '')
    .split(':')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => path.resolve(expandHome(s, env.HOME || os.homedir())));
}
