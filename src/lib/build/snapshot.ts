/**
 * The snapshot phase: what is new on disk goes into the archive store before the inputs are read, so the build
 * reads the store (every step it ever saw, sessions deleted since) rather than today's window on disk. It runs
 * before the inputs and the plan because both read the store: a session's reuse key is its stored version.
 *
 * A store that cannot be used (not ours, from a newer version, corrupt) stops the build with the store's message
 * and hint; the file is left untouched. Nothing is snapshotted with `ARCHIVE_STORE=none`, when building from
 * `ARCHIVE_STORES`, or when no brain folder is found (the demo never writes the user's store).
 */
import path from 'node:path';
import { expandHome } from '../home-path.ts';
import { snapshotPhase } from '../archive/snapshot-phase.ts';
import { storePathFromEnv } from '../store/location.ts';
import { StoreError, diagnoseStoreFailure } from '../store/schema.ts';
import type { BuildContext } from './context.ts';
import { BuildStop } from './stop.ts';

/** Exit code of a build stopped by a store it cannot use, as `npm run archive`'s (README, "Exit codes"). */
export const STORE_EXIT_CODE = 2;

/** Snapshot into the store `ctx.env` names; store paths are made absolute for the render processes (another cwd). */
export async function snapshotArchive(ctx: BuildContext): Promise<void> {
  const store = ctx.env.ARCHIVE_STORE?.trim();
  if (store && store.toLowerCase() !== 'none') ctx.env.ARCHIVE_STORE = path.resolve(expandHome(store));
  if (ctx.env.ARCHIVE_STORES) {
    ctx.env.ARCHIVE_STORES = ctx.env.ARCHIVE_STORES.split(':').map((s) => (s.trim() ? path.resolve(expandHome(s.trim())) : '')).join(':');
  }
  try {
    const outcome = await snapshotPhase(ctx.env, { info: (m) => console.log(m), warn: (m) => console.warn(m) });
    if ('skipped' in outcome) console.log(`snapshot: ${outcome.skipped}`);
  } catch (error) {
    const file = ((): string | undefined => {
      try {
        return storePathFromEnv(ctx.env);
      } catch {
        return undefined;
      }
    })();
    const stop = file ? diagnoseStoreFailure(error, file) : error;
    if (!(stop instanceof StoreError)) throw error;
    throw new BuildStop(stop.message.split('\nHint: ')[0] as string, stop.hint, { exitCode: STORE_EXIT_CODE, cause: error });
  }
}
