/**
 * `npm run build`: runs `astro build` (which runs the Pagefind step as an integration) in a child Node process with
 * a heap sized for 100k pages, inheriting stdio and forwarding the exit code. Bad input never fails a build: the
 * reader records problems; only a broken setup does.
 *
 * Incremental: before Astro starts, every session's reuse key is compared with the last successful build into the
 * same out dir; the folders of unchanged sessions are set aside and not rendered again, and only search shards
 * holding a changed session are re-indexed (`src/lib/archive/incremental.ts`). Any doubt renders everything.
 *
 * Split rendering: Astro renders pages on one thread, so a big build (many MiB of sessions to render) is split
 * between render processes, one per core (at most 2 unless ARCHIVE_RENDER_PROCESSES says otherwise). Each renders
 * the pages of its share of the sessions, balanced by size (`assignRenderParts`); the first also renders the pages
 * over every session into the out dir, the others into `<outDir>.part-<n>/`, whose session folders are then moved
 * into the out dir. The search step then runs here, once, over the whole site.
 *
 * Env: GEMINI_HOME / BRAIN_ROOTS (inputs), ARCHIVE_REDACT=off, ARCHIVE_BASE, ARCHIVE_OUT_DIR, ARCHIVE_CACHE_DIR,
 * ARCHIVE_MAX_OLD_SPACE_MB (default 8192), ARCHIVE_RENDER_PROCESSES (default: cores, at most 2, for builds with
 * over 64 MiB of sessions to render; 1 otherwise).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { resolveArchiveInputs } from '../src/lib/archive/inputs.ts';
import { SEARCH_STEP_ENV, runSearchStep } from '../src/integrations/pagefind.ts';
import {
  PART_ENV,
  PLAN_ENV,
  abandonBuild,
  assignRenderParts,
  commitBuild,
  planBuild,
  sessionReuseKeys,
  siteFingerprint,
  type BuildPlan,
} from '../src/lib/archive/incremental.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const heapMb = Number(process.env.ARCHIVE_MAX_OLD_SPACE_MB) || 8192;
const astroBin = path.join(projectRoot, 'node_modules', 'astro', 'bin', 'astro.mjs');

/** Absolute form of a path given relative to where the user ran the command. */
const absolute = (p: string): string => (p.startsWith('~') ? p : path.resolve(p));
const inside = (child: string, parent: string): boolean => child === parent || child.startsWith(parent + path.sep);

const outDir = path.resolve(projectRoot, process.env.ARCHIVE_OUT_DIR || 'dist');
const cacheDir = path.resolve(projectRoot, process.env.ARCHIVE_CACHE_DIR || 'node_modules/.cache/agy-archive');
const env: NodeJS.ProcessEnv = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ARCHIVE_OUT_DIR: outDir, ARCHIVE_CACHE_DIR: cacheDir };
if (env.GEMINI_HOME) env.GEMINI_HOME = absolute(env.GEMINI_HOME);
if (env.BRAIN_ROOTS) env.BRAIN_ROOTS = env.BRAIN_ROOTS.split(':').map((r) => (r ? absolute(r) : r)).join(':');

// Astro writes its temporary server bundle to `<outDir>/.prerender/` when outDir is inside the working folder,
// otherwise to `<cwd>/.astro/.prerender/` — which two builds at once (tests, a bench beside a build, the render
// processes of one build) would share and clobber. The bundle imports packages by name, so it must sit inside the
// project to find node_modules. So an outDir outside the project gets a working folder of its own inside the
// project's cache.
function workingFolder(forOutDir: string): string {
  if (inside(forOutDir, projectRoot)) return projectRoot;
  const dir = path.join(projectRoot, 'node_modules', '.cache', 'agy-archive-builds', createHash('sha1').update(forOutDir).digest('hex').slice(0, 12));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Builds with at least this many bytes of sessions to render are split between render processes by default. */
const SPLIT_FROM_BYTES = 64 * 2 ** 20;

/** How many processes render the pages: ARCHIVE_RENDER_PROCESSES, else one per core (at most 2) for big builds. */
function renderProcessCount(bytesToRender: number, sessionsToRender: number): number {
  const given = Number(process.env.ARCHIVE_RENDER_PROCESSES);
  const wanted = Number.isInteger(given) && given >= 1 ? given : bytesToRender >= SPLIT_FROM_BYTES ? Math.min(2, os.availableParallelism()) : 1;
  return Math.max(1, Math.min(wanted, sessionsToRender));
}

/** Decide which sessions' pages to reuse; on any error, plan a full build (correctness first). */
async function plan(): Promise<BuildPlan | undefined> {
  const started = Date.now();
  try {
    const quiet = { info: () => {}, warn: () => {} };
    const inputs = await resolveArchiveInputs(projectRoot, env, quiet);
    const keyed = await sessionReuseKeys(inputs, await siteFingerprint(projectRoot), {
      base: env.ARCHIVE_BASE ?? '',
      redactionEnabled: inputs.redactionEnabled,
      isDemo: inputs.isDemo,
      roots: inputs.discovery.roots.map((r) => r.path).sort(),
    }, cacheDir);
    const { plan, planFile } = planBuild(cacheDir, outDir, keyed, (toRender) => {
      const count = renderProcessCount(toRender.reduce((sum, id) => sum + (keyed.bytes[id] ?? 0), 0), toRender.length);
      return count > 1 ? assignRenderParts(toRender, keyed.bytes, count) : undefined;
    });
    env[PLAN_ENV] = planFile;
    const total = Object.keys(keyed.keys).length;
    console.log(
      `incremental: reused pages of ${plan.reused.length} unchanged sessions, rendering ${total - plan.reused.length}` +
        `${plan.whyNone ? ` (${plan.whyNone})` : ''}; planned in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return plan;
  } catch (error) {
    abandonBuild(cacheDir);
    delete env[PLAN_ENV];
    console.warn(`incremental: could not plan a partial build (${String(error)}); rendering every session`);
    return undefined;
  }
}
const buildPlan = await plan();
const partCount = buildPlan?.parts ? Math.max(...Object.values(buildPlan.parts)) + 1 : 1;

/** The out dir of render part `n`: the out dir itself for part 0. */
const partOutDir = (n: number): string => (n === 0 ? outDir : `${outDir}.part-${n}`);

/** How often the count of pages written is shown while Astro renders. */
const PROGRESS_EVERY_MS = 5_000;

/** Run `astro build` for render part `n` of `count`; resolves with its exit code (1 when it could not start). */
function renderPart(n: number, count: number): Promise<number> {
  const partEnv: NodeJS.ProcessEnv = { ...env };
  if (count > 1) {
    partEnv[PART_ENV] = String(n);
    partEnv[SEARCH_STEP_ENV] = 'after-parts';
    partEnv.ARCHIVE_OUT_DIR = partOutDir(n);
  }
  const cwd = workingFolder(partOutDir(n));
  const label = count > 1 ? `[render ${n + 1}/${count}] ` : '';
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${heapMb}`, astroBin, 'build', '--root', projectRoot, ...process.argv.slice(2)],
    // Colours as if Astro wrote to the terminal itself.
    { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...partEnv, ...(process.stdout.isTTY && !partEnv.NO_COLOR ? { FORCE_COLOR: '1' } : {}) } },
  );
  // Astro lists every page it writes (100,000 lines for a big archive): those lines are counted, and the count is
  // shown every few seconds instead. Every other line is passed on (prefixed by its part in a split build).
  let pages = 0;
  let shown = Date.now();
  for (const [stream, out] of [[child.stdout, process.stdout], [child.stderr, process.stderr]] as const) {
    createInterface({ input: stream }).on('line', (line) => {
      // A page's render time can come on a line of its own when another line cut in.
      if (/^\s*\(\+\d+m?s\)\s*$/.test(line)) return;
      if (line.includes('├─') || line.includes('└─')) {
        pages++;
        if (Date.now() - shown >= PROGRESS_EVERY_MS) {
          shown = Date.now();
          process.stdout.write(`${label}${pages.toLocaleString('en-US')} pages written\n`);
        }
        return;
      }
      out.write(`${label}${line}\n`);
    });
  }
  return new Promise((resolve) => {
    child.on('error', (error) => {
      console.error(`Could not start astro build: ${error.message}. Hint: run \`npm ci\` first.`);
      resolve(1);
    });
    // 'close', not 'exit': every line of its output has been read by then.
    child.on('close', (code, signal) => {
      if (cwd !== projectRoot) rmSync(cwd, { recursive: true, force: true });
      if (signal) console.error(`astro build${count > 1 ? ` (render ${n + 1}/${count})` : ''} was stopped by ${signal}`);
      resolve(code ?? 1);
    });
  });
}

/** Move the session folders the other render parts wrote into the out dir, and remove their out dirs. */
function gatherParts(count: number): void {
  for (let n = 1; n < count; n++) {
    const sessions = path.join(partOutDir(n), 'sessions');
    if (existsSync(sessions)) {
      mkdirSync(path.join(outDir, 'sessions'), { recursive: true });
      for (const id of readdirSync(sessions)) {
        const to = path.join(outDir, 'sessions', id);
        if (existsSync(to)) throw new Error(`Session ${id} was rendered by two render processes.`);
        renameSync(path.join(sessions, id), to);
      }
    }
    rmSync(partOutDir(n), { recursive: true, force: true });
  }
}

const started = Date.now();
for (let n = 1; n < partCount; n++) rmSync(partOutDir(n), { recursive: true, force: true });
if (partCount > 1) console.log(`rendering in ${partCount} processes (ARCHIVE_RENDER_PROCESSES to change)`);
const codes = await Promise.all(Array.from({ length: partCount }, (_, n) => renderPart(n, partCount)));
let code = codes.find((c) => c !== 0) ?? 0;
if (code === 0 && partCount > 1) {
  try {
    gatherParts(partCount);
    // The search step reads the plan (reused sessions to put back, shard keys) from this process's environment.
    if (env[PLAN_ENV]) process.env[PLAN_ENV] = env[PLAN_ENV];
    const say = { info: (message: string) => console.log(`[search] ${message}`) };
    await runSearchStep(outDir, cacheDir, say);
    console.log(`built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } catch (error) {
    console.error(String(error instanceof Error ? error.message : error));
    code = 1;
  }
}
if (code !== 0) for (let n = 1; n < partCount; n++) rmSync(partOutDir(n), { recursive: true, force: true });
if (buildPlan && code === 0) {
  try {
    commitBuild(cacheDir, buildPlan);
  } catch (error) {
    console.error(String(error instanceof Error ? error.message : error));
    process.exit(1);
  }
} else abandonBuild(cacheDir);
process.exit(code);
