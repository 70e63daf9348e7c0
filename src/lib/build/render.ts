/**
 * The render phase: `astro build` in child processes with a heap sized for 100k pages. Astro renders pages on one
 * thread, so a big build (many MiB of sessions to render) is split in render parts, run one per core at a time (at
 * most 2 unless ARCHIVE_RENDER_PROCESSES says otherwise), and in more parts than that when one part would hold
 * more than a process can (`PART_MAX_BYTES`). Each renders the pages of its share of the sessions, balanced by size
 * (`assignRenderParts`); the first also renders the pages over every session into the staging folder, the others
 * into `<outDir>.part-<n>/` (gathered by `gather.ts`).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { PART_ENV, SEARCH_STEP_ENV } from '../archive/incremental.ts';
import type { BuildContext } from './context.ts';
import { makeScratchFolder } from './folders.ts';
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

/**
 * The most bytes of sessions one render part takes on (a bigger archive is cut in more parts, rendered a few at a
 * time). A render process holds its sessions' content store and every page's props: at 100k steps, each of two
 * parts of ~140 MiB peaked at 2.3 GiB, so a part of 160 MiB stays near 3 GiB at any archive size, where two parts
 * of a 1M-step archive (1.4 GiB each) would each want ~20 GiB. Part 0 also holds every session's summary.
 */
const PART_MAX_BYTES = 160 * 2 ** 20;

/** `PART_MAX_BYTES`, or ARCHIVE_RENDER_PART_MIB (MiB, may be a fraction: tests cut the demo in many parts). */
function partMaxBytes(env: NodeJS.ProcessEnv): number {
  const given = Number(env.ARCHIVE_RENDER_PART_MIB);
  return Number.isFinite(given) && given > 0 ? given * 2 ** 20 : PART_MAX_BYTES;
}

/** How many render processes run at once: ARCHIVE_RENDER_PROCESSES, else one per core, at most 2. */
export function renderProcessesAtOnce(env: NodeJS.ProcessEnv = process.env): number {
  const given = Number(env.ARCHIVE_RENDER_PROCESSES);
  return Number.isInteger(given) && given >= 1 ? given : Math.min(2, os.availableParallelism());
}

/**
 * How many render parts the pages are split in: one for a small build; for a big one as many as run at once, or
 * more when that would put over `PART_MAX_BYTES` in one part. ARCHIVE_RENDER_PROCESSES sets the parts at once
 * (and at least that many parts, which tests use to split a small build).
 */
export function renderProcessCount(bytesToRender: number, sessionsToRender: number, env: NodeJS.ProcessEnv = process.env): number {
  const given = Number(env.ARCHIVE_RENDER_PROCESSES);
  const partMax = partMaxBytes(env);
  const big = bytesToRender >= Math.min(SPLIT_FROM_BYTES, partMax);
  const atLeast = Number.isInteger(given) && given >= 1 ? given : big ? renderProcessesAtOnce(env) : 1;
  const wanted = Math.max(atLeast, big ? Math.ceil(bytesToRender / partMax) : 1);
  return Math.max(1, Math.min(wanted, sessionsToRender));
}

/** How often the count of pages written is shown while Astro renders. */
const PROGRESS_EVERY_MS = 5_000;

/**
 * Run `astro build` for render part `n` of `count` into `ctx.folders.part(n)`; resolves with its exit code.
 * `running` gets the child, so that a failed part can stop the others (a later part waits for part 0's family inputs).
 */
function renderPart(ctx: BuildContext, n: number, count: number, running: Set<ReturnType<typeof spawn>>, searchAfter: boolean): Promise<number> {
  const outDir = ctx.folders.part(n);
  // Marked as the build's own before Astro writes into it (astro.config.mjs: Astro does not empty it first).
  makeScratchFolder(outDir);
  const partEnv: NodeJS.ProcessEnv = { ...ctx.env, ARCHIVE_OUT_DIR: outDir };
  if (count > 1) partEnv[PART_ENV] = String(n);
  if (searchAfter) partEnv[SEARCH_STEP_ENV] = 'after-parts';
  const cwd = workingFolder(ctx.projectRoot, outDir);
  const label = count > 1 ? `[render ${n + 1}/${count}] ` : '';
  const astroBin = path.join(ctx.projectRoot, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const preload = (file: string) => `--import=${pathToFileURL(path.join(ctx.projectRoot, 'src', 'lib', 'build', file)).href}`;
  const child = spawn(
    process.execPath,
    [
      `--max-old-space-size=${ctx.heapMb}`,
      preload('orphan-guard.ts'),
      preload('astro-temp-files.ts'),
      astroBin,
      'build',
      '--root',
      ctx.projectRoot,
      ...ctx.astroArgs,
    ],
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
 * Render every part at once and wait for all of them. With `searchAfter` (every build of sessions) the search step
 * is left to `scripts/build.ts`, which runs it once the parts are gathered and the reused folders linked (see
 * `renderWhileLinking`); a joined build's one process runs its own at `astro:build:done`. Throws a `BuildStop`
 * when a part failed: the new site is then incomplete and is not published.
 */
export async function renderParts(ctx: BuildContext, count: number, { searchAfter = true }: { searchAfter?: boolean } = {}): Promise<void> {
  const atOnce = Math.min(count, renderProcessesAtOnce(ctx.env));
  if (count > 1) {
    console.log(`rendering in ${count} parts, ${atOnce} processes at a time (ARCHIVE_RENDER_PROCESSES to change)`);
  }
  const running = new Set<ReturnType<typeof spawn>>();
  const codes: number[] = Array.from({ length: count }, () => 0);
  let next = 0;
  let failedOnce = false;
  // Parts in order, `atOnce` at a time: part 0 starts first (the others wait for its family inputs). One failed part
  // fails the build: the running ones are stopped, and no other is started.
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      for (let n = next++; n < count && !failedOnce; n = next++) {
        const code = await renderPart(ctx, n, count, running, searchAfter);
        codes[n] = code;
        if (code !== 0 && !failedOnce) {
          failedOnce = true;
          for (const other of running) other.kill('SIGTERM');
        }
      }
    }),
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
