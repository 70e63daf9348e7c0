/**
 * The join phase (ARCHIVE_JOIN=partA:partB): a build over built parts instead of brain folders, for an archive that
 * outgrew one machine (`src/lib/join/`). It takes the place of inputs and plan: the parts are checked here, before
 * Astro starts, so a folder that is not a built part stops the build with a hint; nothing is reused (a joined site
 * is a few pages per session, rendered in seconds). Its content store is its own (`<cache>/join/`), so a joined
 * build never mixes its collections with those of an ordinary build into the same cache.
 */
import path from 'node:path';
import { JOIN_ENV, joinFolders } from '../join/env.ts';
import type { BuildContext } from './context.ts';
import { BuildStop } from './stop.ts';

/**
 * The parts a joined build reads (absolute), or undefined for an ordinary build (which does not load the join's
 * modules: their schemas were ~0.2 s of CPU of a rebuild with nothing to do).
 */
export async function joinPhase(ctx: BuildContext): Promise<string[] | undefined> {
  const dirs = joinFolders(ctx.env).map((d) => path.resolve(d));
  if (dirs.length === 0) return undefined;
  const { JoinPartError, joinPartFolders } = await import('../join/join.ts');
  let joined;
  try {
    joined = joinPartFolders(dirs);
  } catch (error) {
    if (error instanceof JoinPartError) {
      const [message, hint] = error.message.split(' Hint: ');
      throw new BuildStop(message ?? error.message, hint ?? 'give ARCHIVE_JOIN the out dirs of built parts.', { exitCode: 2, cause: error });
    }
    throw error;
  }
  console.log(
    `join: ${joined.sessions.length} sessions from ${joined.parts.length} parts (${joined.parts.map((p) => p.base).join(', ')}), ` +
      `${joined.bundles.length} search bundles${joined.problems.length > 0 ? `, ${joined.problems.length} problems (see /report/)` : ''}`,
  );
  ctx.env[JOIN_ENV] = dirs.join(':');
  ctx.env.ARCHIVE_CACHE_DIR = path.join(ctx.cacheDir, 'join');
  return dirs;
}
