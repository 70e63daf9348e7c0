/**
 * The gather phase of a split build: the render processes after the first wrote their sessions' folders into
 * `<outDir>.part-<n>/`; they are moved (renamed) into the new site, so it is the same site a single process writes.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BuildContext } from './context.ts';

/** Move the session folders of render parts 1… into the staging folder, and remove their out dirs. */
export function gatherParts(ctx: BuildContext, count: number): void {
  const site = ctx.folders.staging;
  for (let n = 1; n < count; n++) {
    const sessions = path.join(ctx.folders.part(n), 'sessions');
    if (existsSync(sessions)) {
      mkdirSync(path.join(site, 'sessions'), { recursive: true });
      for (const id of readdirSync(sessions)) {
        const to = path.join(site, 'sessions', id);
        if (existsSync(to)) throw new Error(`Session ${id} was rendered by two render processes.`);
        renameSync(path.join(sessions, id), to);
      }
    }
    rmSync(ctx.folders.part(n), { recursive: true, force: true });
  }
}
