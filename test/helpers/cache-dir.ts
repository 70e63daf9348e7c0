/** A fresh ARCHIVE_CACHE_DIR for one test file, so cache hits and misses are the file's own; restored afterwards. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** Registers the hooks; `dir` is set once the file's tests start. */
export function useTempCacheDir(prefix: string): { readonly dir: string } {
  const state = { dir: '' };
  const previous = process.env.ARCHIVE_CACHE_DIR;
  beforeAll(async () => {
    state.dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    process.env.ARCHIVE_CACHE_DIR = state.dir;
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.ARCHIVE_CACHE_DIR;
    else process.env.ARCHIVE_CACHE_DIR = previous;
    await rm(state.dir, { recursive: true, force: true });
  });
  return state;
}
