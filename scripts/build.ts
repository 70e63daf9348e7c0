/**
 * `npm run build`: runs `astro build` (which runs the Pagefind step as an integration) in a child Node process with
 * a heap sized for 100k pages, inheriting stdio and forwarding the exit code. Bad input never fails a build: the
 * reader records problems; only a broken setup does.
 *
 * Env: GEMINI_HOME / BRAIN_ROOTS (inputs), ARCHIVE_REDACT=off, ARCHIVE_BASE, ARCHIVE_OUT_DIR, ARCHIVE_CACHE_DIR,
 * ARCHIVE_MAX_OLD_SPACE_MB (default 8192).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

const child = spawn(
  process.execPath,
  [`--max-old-space-size=${heapMb}`, astroBin, 'build', '--root', projectRoot, ...process.argv.slice(2)],
  { cwd, stdio: 'inherit', env },
);
child.on('error', (error) => {
  console.error(`Could not start astro build: ${error.message}. Hint: run \`npm ci\` first.`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (cwd !== projectRoot) rmSync(cwd, { recursive: true, force: true });
  if (signal) console.error(`astro build was stopped by ${signal}`);
  process.exit(code ?? 1);
});
