/**
 * Builds shared by the test files of one `vitest run`: each named home is built once, by whichever test file asks
 * first (a lock folder), and the others wait for it. The run folder comes from the global setup
 * (`AGY_TEST_RUN_DIR`); outside it (a single file run by hand) a fresh folder per process is used.
 * Nothing is built for test files that do not ask, so unit-test runs stay fast.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildSite, type BuildSiteResult } from './build-site.ts';

let localRunDir: string | undefined;
function runDir(): string {
  const shared = process.env.AGY_TEST_RUN_DIR;
  if (shared) return shared;
  localRunDir ??= mkdtempSync(path.join(os.tmpdir(), 'agy-site-test-'));
  return localRunDir;
}

/** A finished shared build. */
export interface SharedBuild extends BuildSiteResult {
  outDir: string;
}

/** Build `name` with `env` once per test run; every caller gets the same output folder and result. */
export async function sharedBuild(name: string, env: Record<string, string | undefined>): Promise<SharedBuild> {
  const dir = runDir();
  const outDir = path.join(dir, name, 'dist');
  const cacheDir = path.join(dir, name, 'cache');
  const lock = path.join(dir, `${name}.lock`);
  const done = path.join(dir, `${name}.result.json`);
  let mine = false;
  try {
    mkdirSync(lock, { recursive: false });
    mine = true;
  } catch {
    // Someone else builds it.
  }
  if (mine) {
    const result = await buildSite({ env, outDir, cacheDir });
    writeFileSync(done, JSON.stringify(result));
    return { ...result, outDir };
  }
  const deadline = Date.now() + 15 * 60_000;
  while (!existsSync(done)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for the shared build "${name}"`);
    await sleep(500);
  }
  return { ...(JSON.parse(readFileSync(done, 'utf8')) as BuildSiteResult), outDir };
}
