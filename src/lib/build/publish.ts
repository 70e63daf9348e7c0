/**
 * The publish phase: the new site replaces the served one only once it is whole. A build that failed on one bad
 * session once took the out dir from 99 files to 24 (no index.html, no pages of the unchanged sessions), because
 * Astro empties its out dir first. Every phase now writes beside the out dir (`folders.ts`), and here the new site
 * is checked, then swapped in by two renames: the out dir to `<outDir>.previous`, the staging folder to the out dir
 * (the out dir is missing only between them; a build killed there gets the old site back from the next build, see
 * `recoverInterruptedSwap`). The old site is removed after, in the background. ARCHIVE_OUT_DIR stays a plain folder.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, promises as fs, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { recordBuild, sealSite } from '../archive/incremental.ts';
import type { BuildContext } from './context.ts';
import { SCRATCH_MARK, isOwnFolder, type SiteFolders } from './folders.ts';
import { recordPublishedSite, siteOwnership, siteRecordDir } from './site-record.ts';
import type { PlannedBuild } from './plan.ts';
import { BuildStop } from './stop.ts';

/** Old sites being removed after a swap are named `<outDir>.old-<id>`. */
export const OLD_SITE_INFIX = '.old-';
/** Render parts after the first write into `<outDir>.part-<n>`. */
export const PART_INFIX = '.part-';

/**
 * The folders beside the out dir a build writes and removes (staging, reused, previous, parts, old sites) that are
 * there now, whoever made them.
 */
export function buildFoldersPresent(folders: SiteFolders): string[] {
  const parent = path.dirname(folders.live);
  const base = path.basename(folders.live);
  let names: string[] = [];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const fixed = new Set([folders.staging, folders.reused, folders.previous].map((f) => path.basename(f)));
  return names
    .filter((name) => fixed.has(name) || name.startsWith(`${base}${PART_INFIX}`) || name.startsWith(`${base}${OLD_SITE_INFIX}`))
    .map((name) => path.join(parent, name));
}

/**
 * Remove a folder in a process of its own that outlives this build: the old site's names (one per file, ~20k at 20k
 * steps) took most of a warm build's 17 s publish phase on this loaded VM, though the site served is already the
 * new one and most of those files are hard links the new site keeps. A remover killed half-way leaves the folder
 * to the next build (`clearBuildFolders`).
 */
function removeInBackground(dir: string): void {
  // Its mark goes last, so that a folder half removed is still known as the build's own (`isOwnFolder`).
  const script = `const fs = require('node:fs'), path = require('node:path'), [dir, mark] = process.argv.slice(1);
for (const name of fs.readdirSync(dir)) if (name !== mark && name !== '.agy-archive-build') fs.rmSync(path.join(dir, name), { recursive: true, force: true });
fs.rmSync(dir, { recursive: true, force: true });`;
  const remover = spawn(process.execPath, ['-e', script, dir, SCRATCH_MARK], {
    detached: true,
    stdio: 'ignore',
  });
  remover.on('error', () => undefined);
  remover.unref();
}

/**
 * Replace the live site by the staging folder: two renames; the old site is then renamed out of the way
 * (`<outDir>.old-<id>`) and removed in the background (`removeInBackground`).
 */
async function swapIn(folders: SiteFolders): Promise<void> {
  await fs.rm(folders.previous, { recursive: true, force: true });
  mkdirSync(path.dirname(folders.live), { recursive: true });
  const hadSite = existsSync(folders.live);
  if (hadSite) renameSync(folders.live, folders.previous);
  try {
    renameSync(folders.staging, folders.live);
  } catch (error) {
    if (hadSite) renameSync(folders.previous, folders.live);
    throw error;
  }
  if (!hadSite) return;
  // An old site is this tool's (its mark, or an empty folder: `out-dir.ts` let nothing else be built into).
  const old = `${folders.live}${OLD_SITE_INFIX}${randomUUID()}`;
  renameSync(folders.previous, old);
  removeInBackground(old);
}

/**
 * Check the new site (`sealSite`: front page there, every page whole, every reused folder back; its mark written),
 * swap it in, then record the manifest the next build reuses from. Throws a `BuildStop` when the new site is not
 * whole or cannot be swapped in: the served site is then as it was.
 */
export async function publishSite(ctx: BuildContext, planned: PlannedBuild, isDemo: boolean): Promise<void> {
  const started = Date.now();
  let sealed;
  try {
    sealed = await sealSite(ctx.folders.staging, planned.plan, isDemo);
  } catch (error) {
    throw new BuildStop(
      `The new site is not whole, so it was not published; the site in ${ctx.folders.live} was left as it was: ` +
        String(error instanceof Error ? error.message : error),
      'run `npm run build` again.',
      { cause: error },
    );
  }
  // The staging folder's scratch mark is not part of the site (its own mark now says what it is).
  rmSync(path.join(ctx.folders.staging, SCRATCH_MARK), { force: true });
  // Recorded before the swap: a build stopped between the two leaves a site (old or new) the record knows.
  try {
    recordPublishedSite(siteRecordDir(ctx.env), ctx.folders.live, ctx.folders.staging);
  } catch (error) {
    throw new BuildStop(
      `The new site could not be recorded in ${siteRecordDir(ctx.env)} (${String(error)}), so it was not published; the site in ${ctx.folders.live} was left as it was.`,
      "the build records each site it publishes there (HOME's data folder, or XDG_DATA_HOME's): it must be writable.",
      { cause: error },
    );
  }
  try {
    await swapIn(ctx.folders);
  } catch (error) {
    throw new BuildStop(
      `The new site could not be moved into ${ctx.folders.live} (${String(error)}); the site served was not changed.`,
      `ARCHIVE_OUT_DIR must be a folder that can be renamed: its parent (${path.dirname(ctx.folders.live)}) writable, ` +
        'and not a mount point (mount its parent instead).',
      { cause: error },
    );
  }
  recordBuild(ctx.cacheDir, sealed);
  console.log(
    `publish: ${sealed.pagesChecked.toLocaleString('en-US')} new pages checked whole, the new site swapped in for ` +
      `${ctx.folders.live} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * After taking the lock: a build killed between the two renames of the swap left no out dir and the old site in
 * `<outDir>.previous`; put it back. Returns a line for the log when it did.
 */
export function recoverInterruptedSwap(folders: SiteFolders): string | undefined {
  if (existsSync(folders.live) || !existsSync(folders.previous)) return undefined;
  renameSync(folders.previous, folders.live);
  return `publish: put back the site an interrupted build had moved to ${folders.previous}`;
}

/**
 * Remove what a build writes beside the out dir (staging, reused links, render parts, the old site): after every
 * build, and before one (a killed build leaves them). Only folders this tool made (`isOwnFolder`): a folder of the
 * user's by one of these names is left alone (the build refused to start beside it, `out-dir.ts`). Only ever called
 * with the lock held. `oldSites: false` leaves the old sites (`.old-<id>`) to the removers already at work on them.
 */
export async function clearBuildFolders(folders: SiteFolders, recordDir: string, { oldSites = true } = {}): Promise<void> {
  const oldPrefix = `${path.basename(folders.live)}${OLD_SITE_INFIX}`;
  for (const dir of buildFoldersPresent(folders)) {
    // At the end of a build, the old site it moved aside is being removed already (`swapIn`): proving it the
    // tool's again read every folder of it (2.0 s of a 20k-step build's CPU profile) to start a second remover.
    if (!oldSites && path.basename(dir).startsWith(oldPrefix)) continue;
    if (!isOwnFolder(dir, (site) => siteOwnership(site, recordDir, folders.live).owned)) continue;
    // An old site whose background removal was killed (a running one is removed twice, harmlessly).
    if (path.basename(dir).startsWith(oldPrefix)) removeInBackground(dir);
    else await fs.rm(dir, { recursive: true, force: true });
  }
}
