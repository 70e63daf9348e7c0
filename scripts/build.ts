/**
 * `npm run build`: runs `astro build` (which runs the Pagefind step as an integration) in a child Node process with
 * a heap sized for 100k pages, inheriting stdio and forwarding the exit code. Bad input never fails a build: the
 * reader records problems; only a broken setup does.
 *
 * Incremental: before Astro starts, every session's reuse key is compared with the last successful build into the
 * same out dir; the folders of unchanged sessions are set aside and not rendered again, and only search shards
 * holding a changed session are re-indexed (`src/lib/archive/incremental.ts`). Any doubt renders everything.
 *
 * Env: GEMINI_HOME / BRAIN_ROOTS (inputs), ARCHIVE_REDACT=off, ARCHIVE_BASE, ARCHIVE_OUT_DIR, ARCHIVE_CACHE_DIR,
 * ARCHIVE_MAX_OLD_SPACE_MB (default 8192).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveArchiveInputs } from '../src/lib/archive/inputs.ts';
import {
  PLAN_ENV,
  abandonBuild,
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
// otherwise to `<cwd>/.astro/.prerender/` — which two builds at once (tests, a bench beside a build) would share
// and clobber. The bundle imports packages by name, so it must sit inside the project to find node_modules. So an
// outDir outside the project gets a working folder of its own inside the project's cache.
const cwd = inside(outDir, projectRoot)
  ? projectRoot
  : path.join(projectRoot, 'node_modules', '.cache', 'agy-archive-builds', createHash('sha1').update(outDir).digest('hex').slice(0, 12));
mkdirSync(cwd, { recursive: true });

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
    });
    const { plan, planFile } = planBuild(cacheDir, outDir, keyed);
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

const child = spawn(
  process.execPath,
  [`--max-old-space-size=${heapMb}`, astroBin, 'build', '--root', projectRoot, ...process.argv.slice(2)],
  { cwd, stdio: 'inherit', env },
);
child.on('error', (error) => {
  console.error(`Could not start astro build: ${error.message}. Hint: run \`npm ci\` first.`);
  abandonBuild(cacheDir);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (cwd !== projectRoot) rmSync(cwd, { recursive: true, force: true });
  if (buildPlan && code === 0 && !signal) {
    try {
      commitBuild(cacheDir, buildPlan);
    } catch (error) {
      console.error(String(error instanceof Error ? error.message : error));
      process.exit(1);
    }
  } else abandonBuild(cacheDir);
  if (signal) console.error(`astro build was stopped by ${signal}`);
  process.exit(code ?? 1);
});
