/**
 * Counting the conversation databases a build reads, from outside its processes: every read copies the `.db` and
 * its `-wal` into a folder of its own under the temp folder first (`src/lib/brain/conversation-db/copy.ts`; SQLite
 * never opens the user's file), so a build whose TMPDIR is a watched folder creates one `agy-archive-db-*` folder per
 * database it reads. The folders are removed at once; the watch (inotify) still sees each one created.
 */
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, rmdir, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { COPY_FOLDER_PREFIX } from '../../src/lib/brain/conversation-db/copy.ts';

/** A watch on `tmpDir` (give it to the build as TMPDIR): `count()` the database copies so far, `close()` at the end. */
export interface DbCopyWatch {
  /** Copies made since the watch started (or since the last `reset`), after every pending event was delivered. */
  count(): Promise<number>;
  reset(): Promise<void>;
  close(): void;
}

export async function watchDbCopies(tmpDir: string): Promise<DbCopyWatch> {
  await mkdir(tmpDir, { recursive: true });
  // Astro keeps Node's compile cache under the temp folder (astro.mjs: module.enableCompileCache()): builds given
  // this TMPDIR keep using the one they use with the usual TMPDIR, so moving it does not make them slower.
  // NODE_COMPILE_CACHE first (Node's own order): the test runs set it, and their temp folder is checked for leftovers.
  const compileCache = process.env.NODE_COMPILE_CACHE || path.join(os.tmpdir(), 'node-compile-cache');
  await mkdir(compileCache, { recursive: true });
  await symlink(compileCache, path.join(tmpDir, 'node-compile-cache')).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const seen = new Set<string>();
  const waiting = new Map<string, () => void>();
  const watcher: FSWatcher = watch(tmpDir, (_event, name) => {
    if (!name) return;
    if (name.startsWith(COPY_FOLDER_PREFIX)) seen.add(name);
    waiting.get(name)?.();
  });
  let marks = 0;
  // Events come in the order the kernel queued them: once a marker of our own made now is seen, every copy made
  // before it has been counted.
  const flush = async () => {
    const marker = `flush-${process.pid}-${marks++}`;
    const arrived = new Promise<void>((resolve) => waiting.set(marker, resolve));
    await mkdir(path.join(tmpDir, marker));
    await arrived;
    waiting.delete(marker);
    await rmdir(path.join(tmpDir, marker));
  };
  return {
    async count() {
      await flush();
      return seen.size;
    },
    async reset() {
      await flush();
      seen.clear();
    },
    close: () => watcher.close(),
  };
}
