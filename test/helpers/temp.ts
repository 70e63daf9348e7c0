/**
 * Temp folders for tests, each removed when its test (or, made outside a test, its file) ends, pass or fail. Under
 * `vitest run` they land in the run's own temp folder (`TMPDIR` set by global-setup.ts), which the global teardown
 * checks is empty at the end: a folder a test forgot fails the run instead of piling up in /tmp (issue 26: about 60
 * `agy-store-*` folders, 200 MB, were left by every run).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/**
 * Remove `dir` and all it holds, retrying while something else is removing inside it: a build's old site is removed
 * by a detached process that outlives the build (`removeInBackground`, src/lib/build/publish.ts), and a removal racing
 * it can fail half-way (a run of `npm test` left `agy-out-dir-xbToZi` behind and failed at teardown).
 */
export function removeTree(dir: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      if (!existsSync(dir)) return;
    } catch (error) {
      if (attempt >= 40) throw error;
    }
    if (attempt >= 40) throw new Error(`${dir} is still there after 40 attempts to remove it`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  }
}

/** Folders made outside a running test, removed once the file's tests are done. */
const untilFileEnds = new Set<string>();

// Registered as this module is imported, which is while the test file is collected: a hook registered later (inside
// `beforeAll`, or `afterEach` inside a test) never runs.
afterAll(() => {
  for (const dir of untilFileEnds) removeTree(dir);
  untilFileEnds.clear();
});

/**
 * A fresh folder `<tmp>/<prefix>XXXXXX`. Made inside a test, it is removed when that test finishes; made anywhere
 * else (top level, a `describe` body, `beforeAll`), when the file's tests are done.
 */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    onTestFinished(() => removeTree(dir));
  } catch {
    untilFileEnds.add(dir);
  }
  return dir;
}
