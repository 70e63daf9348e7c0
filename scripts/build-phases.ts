/**
 * `npm run build` (through `scripts/build.ts`, which turns on Node's compile cache first): the site from every
 * session, in named phases, each a module of `src/lib/build/` that says why it
 * is there. Read top to bottom:
 *
 *   lock      one build at a time per out dir and per cache; a second build waits (`lock.ts`)
 *   snapshot  what is new on disk into the archive store, which the inputs then read (`snapshot.ts`)
 *   inputs    which sessions to read; the demo never replaces a real archive (`inputs.ts`)
 *   plan      which sessions' pages to reuse from the live site, and how many render processes (`plan.ts`);
 *             when nothing changed, the build ends here ("nothing to do") and the out dir is left as it is;
 *             else the whole out dir is proved the tool's (`out-dir.ts`) while Astro renders, before anything is
 *             gathered or published
 *   render    `astro build` per render part, into `<outDir>.staging` and `<outDir>.part-<n>` (`render.ts`), while
 *             the reused folders are linked from the live site (`renderWhileLinking`)
 *   gather    the parts' session folders into the staging folder (`gather.ts`)
 *   index     the search step over the whole new site (`search.ts`)
 *   precompress  `.gz`/`.br` copies of the text files, with ARCHIVE_PRECOMPRESS (`precompress.ts`)
 *   publish   check the new site, swap it in for the out dir (`publish.ts`)
 *   unlock
 *
 * A joined build (ARCHIVE_JOIN=partA:partB, the out dirs of built parts) takes its own path through the phases:
 * lock → join (the parts instead of inputs and plan, `join.ts`) → render → precompress → publish. It writes the
 * top-level site over the parts (`src/lib/join/`): home, short links, audit views, stats and sessions.json over
 * every part's sessions, linking into the parts, and a search page merging every part's Pagefind bundles.
 *
 * The out dir users serve is only ever changed by the publish phase, so a build that fails (exit code not 0) leaves
 * the previous site as it was. Bad input never fails a build: the reader records problems; only a broken setup, or
 * a phase that could not finish, does (with a message and a hint).
 *
 * Env: GEMINI_HOME / BRAIN_ROOTS (inputs), ARCHIVE_JOIN, ARCHIVE_STORE / ARCHIVE_STORES (the archive store),
 * ARCHIVE_REDACT=off, ARCHIVE_BASE, ARCHIVE_OUT_DIR, ARCHIVE_CACHE_DIR, ARCHIVE_MAX_OLD_SPACE_MB (default 8192),
 * ARCHIVE_RENDER_PROCESSES (default: cores, at most 2, for builds with over 64 MiB of sessions to render; 1
 * otherwise), ARCHIVE_PRECOMPRESS (`gzip,br`; default off).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildContext } from '../src/lib/build/context.ts';
import { gatherParts } from '../src/lib/build/gather.ts';
import { readBuildInputs } from '../src/lib/build/inputs.ts';
import { joinPhase } from '../src/lib/build/join.ts';
import { lockBuild } from '../src/lib/build/lock.ts';
import { checkBuildFolders, checkOutDir, checkOutDirWhole } from '../src/lib/build/out-dir.ts';
import { checkSettings } from '../src/lib/build/settings.ts';
import { planPhase, renderWhileLinking } from '../src/lib/build/plan.ts';
import { precompressPhase, precompressSetting } from '../src/lib/build/precompress.ts';
import { clearBuildFolders, publishSite, recoverInterruptedSwap } from '../src/lib/build/publish.ts';
import { siteRecordDir } from '../src/lib/build/site-record.ts';
import { renderParts } from '../src/lib/build/render.ts';
import { snapshotArchive } from '../src/lib/build/snapshot.ts';
import { BuildStop } from '../src/lib/build/stop.ts';
import { STORE_EXIT_CODE } from '../src/lib/build/snapshot.ts';
import { StoreError } from '../src/lib/store/schema.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ctx = buildContext(projectRoot, process.env, process.argv.slice(2));
const started = Date.now();

/** Say why the build stops, and the exit code it stops with. */
function stopped(error: unknown): number {
  if (error instanceof BuildStop) console.error(`${error.message}\nHint: ${error.hint}`);
  // A store read by the inputs phase (its message carries its hint).
  else if (error instanceof StoreError) console.error(error.message);
  else console.error(String(error instanceof Error ? error.message : error));
  return error instanceof BuildStop ? error.exitCode : error instanceof StoreError ? STORE_EXIT_CODE : 1;
}

// Settings that stop the build are read before it waits for the lock: a wrong one is said at once.
let precompress;
let joinedParts;
try {
  checkSettings(ctx.env);
  // The out dir is the tool's own or nothing (`out-dir.ts`): checked before anything is read, locked or written.
  checkOutDir({ outDir: ctx.outDir, live: ctx.folders.live, given: ctx.outDirSetting, projectRoot: ctx.projectRoot, cacheDir: ctx.cacheDir, env: ctx.env });
  checkBuildFolders(ctx.folders, ctx.outDirSetting, siteRecordDir(ctx.env));
  precompress = precompressSetting(ctx.env);
  joinedParts = await joinPhase(ctx);
} catch (error) {
  process.exit(stopped(error));
}

const lock = await lockBuild(ctx.folders.lock, ctx.cacheDir, { outDir: ctx.outDir, cacheDir: ctx.cacheDir });
let exitCode = 0;
/** Whether this build got as far as writing beside the out dir (so has build folders to clear at its end). */
let writes = false;
/** The whole out dir proved the tool's (`checkOutDirWhole`; its top was checked above), once there is work to do. */
let wholeProof: Promise<void> = Promise.resolve();
/**
 * Before the first write beside the out dir: what earlier builds left beside it (killed ones) is cleared, and the
 * whole proof starts; it reads the out dir while Astro renders into the staging folder, and is awaited before
 * anything is gathered, indexed or published (a refusal then leaves the out dir as it was and clears the staging).
 */
const beforeWriting = async (): Promise<void> => {
  writes = true;
  await clearBuildFolders(ctx.folders, siteRecordDir(ctx.env));
  wholeProof = checkOutDirWhole({ outDir: ctx.outDir, live: ctx.folders.live, given: ctx.outDirSetting, env: ctx.env });
  // Awaited below; until then a refusal must not end the process as an unhandled rejection.
  wholeProof.catch(() => undefined);
};
try {
  const recovered = recoverInterruptedSwap(ctx.folders);
  if (recovered) console.log(recovered);

  if (joinedParts) {
    // A joined build: the parts stand for inputs and plan; one render process writes the few pages over them.
    await beforeWriting();
    await renderParts(ctx, 1, { searchAfter: false });
    await wholeProof;
    await precompressPhase(ctx, precompress);
    await publishSite(ctx, { plan: undefined, renderParts: 1 }, false);
  } else {
    await snapshotArchive(ctx);
    const inputs = await readBuildInputs(ctx);
    // The reused sessions' folders are linked while Astro renders (`linkFirst: false`).
    let planned = await planPhase(ctx, inputs, { linkFirst: false }, beforeWriting);
    // Nothing changed since the build serving the out dir: it stays as it is (no staging, no Astro, no Pagefind).
    if (!planned.nothingToDo) {
      planned = await renderWhileLinking(ctx, inputs, planned);
      await wholeProof;
      gatherParts(ctx, planned.renderParts);
      // Loaded only here: Pagefind and the search integration are ~0.9 s of CPU to load, which a build with
      // nothing to do never needs.
      const { indexSearch } = await import('../src/lib/build/search.ts');
      await indexSearch(ctx);
      await precompressPhase(ctx, precompress);
      await publishSite(ctx, planned, inputs.isDemo);
      console.log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  }
} catch (error) {
  exitCode = stopped(error);
} finally {
  // The old site a publish moved aside is left to its remover (`swapIn`); one a killed build left, to the next build.
  if (writes) await clearBuildFolders(ctx.folders, siteRecordDir(ctx.env), { oldSites: false });
  lock.release();
}
process.exit(exitCode);
