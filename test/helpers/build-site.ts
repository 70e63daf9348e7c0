/**
 * Run the real `npm run build` (scripts/build.ts) as a child process with the project's Node, into `outDir`, with
 * its own cache folder so builds in temp dirs never collide. Returns the exit code and the combined output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (two levels above this file). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * `npm run test:quick` builds nothing and starts no browser: a test file that does is missing from
 * SLOW_TESTS in vitest.config.ts, and this says so instead of slowing the quick run down.
 */
export function refuseUnderQuickRun(what: string): void {
  if (process.env.AGY_TEST_QUICK === '1') {
    throw new Error(`this test ${what}, which npm run test:quick does not do: list its file in SLOW_TESTS (vitest.config.ts)`);
  }
}

/** Options of `buildSite`. */
export interface BuildSiteOptions {
  /** Extra environment (GEMINI_HOME, BRAIN_ROOTS, ARCHIVE_BASE, ARCHIVE_REDACT…). */
  env?: Record<string, string | undefined>;
  /** Output folder (absolute). */
  outDir: string;
  /** Cache folder; default `<outDir>-cache`. */
  cacheDir?: string;
  /** Archive store file; default `<outDir>-store/archive.sqlite` (never the user's). `env.ARCHIVE_STORE` wins. */
  store?: string;
}

/** Result of a build. */
export interface BuildSiteResult {
  code: number | null;
  output: string;
}

/** A build under way: its process (to signal it or its children) and its result once it ended. */
export interface StartedBuild {
  child: ChildProcess;
  result: Promise<BuildSiteResult>;
}

/** Start a build. Inputs come only from `env` (HOME-based discovery is neutralised unless given). */
export function startBuild({ env = {}, outDir, cacheDir, store }: BuildSiteOptions): StartedBuild {
  refuseUnderQuickRun('builds a site');
  const childEnv: Record<string, string | undefined> = { ...process.env };
  delete childEnv.GEMINI_HOME;
  delete childEnv.BRAIN_ROOTS;
  delete childEnv.ARCHIVE_BASE;
  delete childEnv.ARCHIVE_REDACT;
  Object.assign(childEnv, {
    ARCHIVE_OUT_DIR: outDir,
    ARCHIVE_CACHE_DIR: cacheDir ?? `${outDir}-cache`,
    ARCHIVE_STORE: store ?? path.join(`${outDir}-store`, 'archive.sqlite'),
    ARCHIVE_STORES: '',
    ASTRO_TELEMETRY_DISABLED: '1',
    NO_COLOR: '1',
    ...env,
  });
  const child = spawn(process.execPath, [path.join(projectRoot, 'scripts', 'build.ts')], {
    cwd: projectRoot,
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result = new Promise<BuildSiteResult>((resolve, reject) => {
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => chunks.push(c));
    child.stderr?.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: Buffer.concat(chunks).toString('utf8') }));
  });
  return { child, result };
}

/** Build the site once (see `startBuild`). */
export function buildSite(options: BuildSiteOptions): Promise<BuildSiteResult> {
  return startBuild(options).result;
}
