/**
 * Vitest global setup: one temp folder per test run, made the run's `TMPDIR` (every test, build and browser the run
 * starts makes its temp folders there, and none lands among other runs' in the machine's temp folder), holding the
 * folder of the site builds test files share (see shared-build.ts; builds happen lazily, only for test files that
 * need them). At the end the shared builds are removed, and anything else still there is a temp folder a test
 * forgot: the run fails naming it (then everything is removed). `AGY_KEEP_TEST_BUILDS=1` keeps it all to look at.
 * The run's `HOME` is an empty folder inside it too, and the inputs a shell may have set are unset.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const runTmp = mkdtempSync(path.join(os.tmpdir(), 'agy-test-run-'));
  const shared = path.join(runTmp, 'shared-builds');
  mkdirSync(shared);
  // Node's compile cache (vitest, vite and astro turn it on) stays where it was: a cache kept between runs, not a
  // test's temp folder.
  process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), 'node-compile-cache');
  process.env.TMPDIR = runTmp;
  process.env.AGY_TEST_RUN_DIR = shared;
  // An empty home of the run's own: no test reads the machine's ~/.gemini, store or settings, and none passes only
  // because of where the clone sits relative to $HOME. Inputs a test wants it sets itself.
  const home = path.join(runTmp, 'home');
  mkdirSync(home);
  process.env.HOME = home;
  for (const name of ['GEMINI_HOME', 'BRAIN_ROOTS', 'ARCHIVE_OUT_DIR', 'ARCHIVE_CACHE_DIR', 'ARCHIVE_BASE', 'ARCHIVE_JOIN', 'XDG_DATA_HOME']) {
    delete process.env[name];
  }
  return () => {
    if (process.env.AGY_KEEP_TEST_BUILDS) {
      console.log(`test run folders kept in ${runTmp}`);
      return;
    }
    rmSync(shared, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    const left = readdirSync(runTmp);
    rmSync(runTmp, { recursive: true, force: true });
    if (left.length > 0) {
      const shown = left.sort().slice(0, 10).join(', ') + (left.length > 10 ? `, … (${left.length})` : '');
      throw new Error(`the tests left ${left.length} temp folders or files behind (${shown}): remove each in afterAll or onTestFinished (test/helpers/temp.ts)`);
    }
  };
}
