/**
 * The join of this build, when it is one: `ARCHIVE_JOIN` names the built parts (`:`-separated folders, made
 * absolute by `scripts/build.ts`). Read once per module graph (the loader's and the pages'), so every page and
 * every link sees the same parts.
 */
import { joinFolders } from './env.ts';
import { joinPartFolders, type JoinedSite } from './join.ts';

export { JOIN_ENV, joinFolders } from './env.ts';

let joinedOnce: JoinedSite | null | undefined;

/** This build's joined site, or undefined when the build is not a join. */
export function currentJoin(env: NodeJS.ProcessEnv = process.env): JoinedSite | undefined {
  if (joinedOnce === undefined) {
    const dirs = joinFolders(env);
    joinedOnce = dirs.length > 0 ? joinPartFolders(dirs) : null;
  }
  return joinedOnce ?? undefined;
}

