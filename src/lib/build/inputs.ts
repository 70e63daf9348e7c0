/**
 * The inputs phase: which sessions the build reads, and the one case where that stops the build. A typo in
 * GEMINI_HOME (a file, a missing or empty folder) finds no brain folder, and the build falls back to the demo
 * archive; that once replaced a real archive already in the out dir, with exit code 0.
 */
import { existsSync, opendirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { resolveArchiveInputs, type ArchiveInputs } from '../archive/inputs.ts';
import type { BuildContext } from './context.ts';
import { siteOwnership, siteRecordDir } from './site-record.ts';
import { BuildStop } from './stop.ts';

/** What is in an out dir, as far as the demo may replace it. */
export type OutDirHolds = 'nothing' | 'demo' | 'archive';

/**
 * Whether `dir` is absent or empty, holds a demo build, or anything else (a real archive, an older build, files).
 * A demo is what the tool's record of the site says (`site-record.ts`), never the mark alone: a mark edited to
 * `"demo":true` once let a demo build replace a real site.
 */
export function outDirHolds(dir: string, recordDir: string): OutDirHolds {
  if (!existsSync(dir)) return 'nothing';
  try {
    if (readdirSync(dir).length === 0) return 'nothing';
  } catch {
    return 'archive';
  }
  const ownership = siteOwnership(dir, recordDir);
  return ownership.owned && ownership.demo ? 'demo' : 'archive';
}

/**
 * Never let the demo replace a real archive: with no brain folder found, stop unless the out dir is empty, absent
 * or a demo build. Throws a `BuildStop` naming the path that held no brain folder.
 */
export function refuseDemoOverArchive(inputs: ArchiveInputs, liveDir: string, recordDir: string): void {
  if (!inputs.isDemo) return;
  const holds = outDirHolds(liveDir, recordDir);
  if (holds !== 'archive') return;
  throw new BuildStop(
    `No brain folder found (${inputs.noRootReason ?? inputs.description}), so this build would be the DEMO archive, ` +
      `and ${liveDir} holds an archive that is not a demo build: nothing was built, and it was left as it was.`,
    'set GEMINI_HOME to the folder holding <product>/brain/ (or BRAIN_ROOTS to brain folders, :-separated); ' +
      `to build the demo anyway, delete ${liveDir} or point ARCHIVE_OUT_DIR at another folder.`,
  );
}

/** Whether the site in `dir` has a page of at least one session (one entry read, however many it has). */
function holdsSessions(dir: string): boolean {
  try {
    const sessions = opendirSync(path.join(dir, 'sessions'));
    try {
      return sessions.readSync() !== null;
    } finally {
      sessions.closeSync();
    }
  } catch {
    return false;
  }
}

/**
 * Never let a build that found no session replace an archive that has some: brain folders that hold nothing (a
 * fresh `~/.gemini`, `BRAIN_ROOTS` naming the wrong folders) with a store that never held the archive's sessions
 * once published an empty site over a real one, with exit code 0. Throws a `BuildStop` (exit code 1).
 */
export function refuseEmptyOverArchive(inputs: ArchiveInputs, liveDir: string, recordDir: string): void {
  if (inputs.isDemo || inputs.discovery.sessions.length > 0) return;
  if (outDirHolds(liveDir, recordDir) !== 'archive' || !holdsSessions(liveDir)) return;
  throw new BuildStop(
    `No session found (${inputs.description}: ${inputs.discovery.roots.length} brain folder(s), none holding a session, ` +
      `and no archive store holding one), and ${liveDir} holds an archive with sessions: nothing was built, and it was left as it was.`,
    'check GEMINI_HOME, BRAIN_ROOTS and ARCHIVE_STORE (the store that holds your sessions); if every session really is gone, ' +
      `delete ${liveDir} and build again.`,
  );
}

/** Resolve the build's inputs (quietly: the render process's loader says the same again) and check them. */
export async function readBuildInputs(ctx: BuildContext): Promise<ArchiveInputs> {
  const quiet = { info: () => {}, warn: () => {} };
  const inputs = await resolveArchiveInputs(ctx.projectRoot, ctx.env, quiet);
  refuseDemoOverArchive(inputs, ctx.folders.live, siteRecordDir(ctx.env));
  refuseEmptyOverArchive(inputs, ctx.folders.live, siteRecordDir(ctx.env));
  return inputs;
}
