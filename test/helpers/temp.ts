/**
 * Temp folders for tests, each removed when its test (or, made outside a test, its file) ends, pass or fail. Under
 * `vitest run` they land in the run's own temp folder (`TMPDIR` set by global-setup.ts), which the global teardown
 * checks is empty at the end: a folder a test forgot fails the run instead of piling up in /tmp (issue 26: about 60
 * `agy-store-*` folders, 200 MB, were left by every run).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/** Folders made outside a running test, removed once the file's tests are done. */
const untilFileEnds = new Set<string>();

// Registered as this module is imported, which is while the test file is collected: a hook registered later (inside
// `beforeAll`, or `afterEach` inside a test) never runs.
afterAll(() => {
  for (const dir of untilFileEnds) rmSync(dir, { recursive: true, force: true });
  untilFileEnds.clear();
});

/**
 * A fresh folder `<tmp>/<prefix>XXXXXX`. Made inside a test, it is removed when that test finishes; made anywhere
 * else (top level, a `describe` body, `beforeAll`), when the file's tests are done.
 */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    untilFileEnds.add(dir);
  }
  return dir;
}
