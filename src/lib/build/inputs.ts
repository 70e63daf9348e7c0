/**
 * The inputs phase: which sessions the build reads, and the one case where that stops the build. A typo in
 * GEMINI_HOME (a file, a missing or empty folder) finds no brain folder, and the build falls back to the demo
 * archive; that once replaced a real archive already in the out dir, with exit code 0.
 */
import { existsSync, readdirSync } from 'node:fs';
import { resolveArchiveInputs, type ArchiveInputs } from '../archive/inputs.ts';
import { readSiteMark } from '../archive/incremental.ts';
import type { BuildContext } from './context.ts';
import { BuildStop } from './stop.ts';

/** What is in an out dir, as far as the demo may replace it. */
export type OutDirHolds = 'nothing' | 'demo' | 'archive';

/** Whether `dir` is absent or empty, holds a demo build, or anything else (a real archive, an older build, files). */
export function outDirHolds(dir: string): OutDirHolds {
  if (!existsSync(dir)) return 'nothing';
  try {
    if (readdirSync(dir).length === 0) return 'nothing';
  } catch {
    return 'archive';
  }
  return readSiteMark(dir)?.demo === true ? 'demo' : 'archive';
}

/**
 * Never let the demo replace a real archive: with no brain folder found, stop unless the out dir is empty, absent
 * or a demo build. Throws a `BuildStop` naming the path that held no brain folder.
 */
export function refuseDemoOverArchive(inputs: ArchiveInputs, liveDir: string): void {
  if (!inputs.isDemo) return;
  const holds = outDirHolds(liveDir);
  if (holds !== 'archive') return;
  throw new BuildStop(
    `No brain folder found (${inputs.noRootReason ?? inputs.description}), so this build would be the DEMO archive, ` +
      `and ${liveDir} holds an archive that is not a demo build: nothing was built, and it was left as it was.`,
    'set GEMINI_HOME to the folder holding <product>/brain/ (or BRAIN_ROOTS to brain folders, :-separated); ' +
      `to build the demo anyway, delete ${liveDir} or point ARCHIVE_OUT_DIR at another folder.`,
  );
}

/** Resolve the build's inputs (quietly: the render process's loader says the same again) and check them. */
export async function readBuildInputs(ctx: BuildContext): Promise<ArchiveInputs> {
  const quiet = { info: () => {}, warn: () => {} };
  const inputs = await resolveArchiveInputs(ctx.projectRoot, ctx.env, quiet);
  refuseDemoOverArchive(inputs, ctx.folders.live);
  return inputs;
}
