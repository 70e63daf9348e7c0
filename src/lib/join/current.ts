/**
 * The join of this build, when it is one: `ARCHIVE_JOIN` names the built parts (`:`-separated folders, made
 * absolute by `scripts/build.ts`). Read once per module graph (the loader's and the pages'), so every page and
 * every link sees the same parts.
 */
import { joinPartFolders, type JoinedSite } from './join.ts';

/** The variable that makes a build a join of parts. */
export const JOIN_ENV = 'ARCHIVE_JOIN';

/** The part folders ARCHIVE_JOIN names, in order (empty: not a joined build). */
export function joinFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env[JOIN_ENV] ?? '').split(':').map((d) => d.trim()).filter(Boolean);
}

let joinedOnce: JoinedSite | null | undefined;

/** This build's joined site, or undefined when the build is not a join. */
export function currentJoin(env: NodeJS.ProcessEnv = process.env): JoinedSite | undefined {
  if (joinedOnce === undefined) {
    const dirs = joinFolders(env);
    joinedOnce = dirs.length > 0 ? joinPartFolders(dirs) : null;
  }
  return joinedOnce ?? undefined;
}

