/**
 * The render phase: `astro build` in child processes with a heap sized for 100k pages. Astro renders pages on one
 * thread, so a big build (many MiB of sessions to render) is split between render processes, one per core (at most
 * 2 unless ARCHIVE_RENDER_PROCESSES says otherwise). Each renders the pages of its share of the sessions, balanced
 * by size (`assignRenderParts`); the first also renders the pages over every session into the staging folder, the
 * others into `<outDir>.part-<n>/` (gathered by `gather.ts`).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { SEARCH_STEP_ENV } from '../../integrations/pagefind.ts';
import { PART_ENV } from '../archive/incremental.ts';
import type { BuildContext } from './context.ts';
import { BuildStop } from './stop.ts';

const inside = (child: string, parent: string): boolean => child === parent || child.startsWith(parent + path.sep);

/**
 * Astro writes its temporary server bundle to `<outDir>/.prerender/` when outDir is inside the working folder,
 * otherwise to `<cwd>/.astro/.prerender/` — which two builds at once (tests, a bench beside a build, the render
 * processes of one build) would share and clobber. The bundle imports packages by name, so it must sit inside the
 * project to find node_modules. So an outDir outside the project gets a working folder of its own inside the
 * project's cache.
 */
function workingFolder(projectRoot: string, forOutDir: string): string {
  if (inside(forOutDir, projectRoot)) return projectRoot;
  const dir = path.join(projectRoot, 'node_modules', '.cache', 'agy-archive-builds', createHash('sha1').update(forOutDir).digest('hex').slice(0, 12));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Builds with at least this many bytes of sessions to render are split between render processes by default. */
const SPLIT_FROM_BYTES = 64 * 2 ** 20;

/** How many processes render the pages: ARCHIVE_RENDER_PROCESSES, else one per core (at most 2) for big builds. */
export function renderProcessCount(bytesToRender: number, sessionsToRender: number, env: NodeJS.ProcessEnv = process.env): number {
  const given = Number(env.ARCHIVE_RENDER_PROCESSES);
  const wanted = Number.isInteger(given) && given >= 1 ? given : bytesToRender >= SPLIT_FROM_BYTES ? Math.min(2, os.availableParallelism()) : 1;
  return Math.max(1, Math.min(wanted, sessionsToRender));
}

/** How often the count of pages written is shown while Astro renders. */
const PROGRESS_EVERY_MS = 5_000;

/**
 * Run `astro build` for render part `n` of `count` into `ctx.folders.part(n)`; resolves with its exit code.
 * `running` gets the child, so that a failed part can stop the others (a later part waits for part 0's family inputs).
 */
function renderPart(ctx: BuildContext, n: number, count: number, running: Set<ReturnType<typeof spawn>>): Promise<number> {
  const outDir = ctx.folders.part(n);
  const partEnv: NodeJS.ProcessEnv = { ...ctx.env, ARCHIVE_OUT_DIR: outDir };
  if (count > 1) {
    partEnv[PART_ENV] = String(n);
    partEnv[SEARCH_STEP_ENV] = 'after-parts';
  }
  const cwd = workingFolder(ctx.projectRoot, outDir);
  const label = count > 1 ? `[render ${n + 1}/${count}] ` : '';
  const astroBin = path.join(ctx.projectRoot, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const orphanGuard = pathToFileURL(path.join(ctx.projectRoot, 'src', 'lib', 'build', 'orphan-guard.ts')).href;
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${ctx.heapMb}`, `--import=${orphanGuard}`, astroBin, 'build', '--root', ctx.projectRoot, ...ctx.astroArgs],
    // Colours as if Astro wrote to the terminal itself.
    { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...partEnv, ...(process.stdout.isTTY && !partEnv.NO_COLOR ? { FORCE_COLOR: '1' } : {}) } },
  );
  running.add(child);
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
      running.delete(child);
      if (cwd !== ctx.projectRoot) rmSync(cwd, { recursive: true, force: true });
      if (signal) console.error(`astro build${count > 1 ? ` (render ${n + 1}/${count})` : ''} was stopped by ${signal}`);
      resolve(code ?? 1);
    });
  });
}

/**
 * Render every part at once and wait for all of them. A single process also runs the search step (at
 * `astro:build:done`); a split build runs it once after gathering. Throws a `BuildStop` when a part failed: the
 * new site is then incomplete and is not published.
 */
export async function renderParts(ctx: BuildContext, count: number): Promise<void> {
  if (count > 1) console.log(`rendering in ${count} processes (ARCHIVE_RENDER_PROCESSES to change)`);
  const running = new Set<ReturnType<typeof spawn>>();
  // One failed part fails the build: the others are stopped rather than left waiting (for part 0's family inputs).
  const codes = await Promise.all(
    Array.from({ length: count }, (_, n) =>
      renderPart(ctx, n, count, running).then((code) => {
        if (code !== 0) for (const other of running) other.kill('SIGTERM');
        return code;
      }),
    ),
  );
  const failed = codes.findIndex((c) => c !== 0);
  if (failed >= 0) {
    throw new BuildStop(
      `astro build${count > 1 ? ` (render ${failed + 1}/${count})` : ''} failed (exit code ${codes[failed]}); the site in ${ctx.folders.live} was left as it was.`,
      'the lines above say why; fix that and run `npm run build` again.',
      { exitCode: codes[failed] || 1 },
    );
  }
}
