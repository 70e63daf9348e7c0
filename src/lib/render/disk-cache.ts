/**
 * The on-disk cache of rendered HTML shared by the render helpers: one file per content hash, so a rebuild reads
 * a small file instead of running a tokenizer or a Markdown pipeline again. Files live under
 * `$ARCHIVE_CACHE_DIR/<area>/<first two hex digits>/<key>.<ext>`; `ARCHIVE_CACHE_DIR` defaults to
 * `node_modules/.cache/agy-archive` in the working directory. Anything going wrong is a miss, never an error:
 * the cache is an optimisation, and a read-only or full disk must not fail the build.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The cache root: `$ARCHIVE_CACHE_DIR`, else `node_modules/.cache/agy-archive` under the working directory. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.ARCHIVE_CACHE_DIR?.trim() || path.join(process.cwd(), 'node_modules', '.cache', 'agy-archive'));
}

/** The file for `key` (a hex digest) in `area`: sharded by its first two characters so no folder gets huge. */
export function cacheFile(area: string, key: string, ext: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cacheRoot(env), area, key.slice(0, 2), `${key}.${ext}`);
}

/** The cached text, or undefined when there is none (or it cannot be read). */
export async function readCacheFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

let tmpCounter = 0;

/** Writes `text` to `file` atomically (write a temporary file, then rename), so no reader sees half a file. */
export async function writeCacheFile(file: string, text: string): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${++tmpCounter}.tmp`;
    await writeFile(tmp, text);
    await rename(tmp, file);
  } catch {
    // A miss next time; see the module comment.
  }
}
