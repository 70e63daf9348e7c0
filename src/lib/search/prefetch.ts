/**
 * Read a tree's pages ahead of Pagefind, many at once, so that Pagefind reads them from the page cache.
 *
 * At 1M steps the site is ~17 GB of HTML, more than the page cache keeps, so the search step reads most pages back
 * from disk. Pagefind reads a few files at a time, and a virtual disk serves small random reads by the number in
 * flight: on this machine 3,000 step files took 38.3 s read one at a time and 6.1 s read 32 at a time, with the
 * same Pagefind run beside both. Two Pagefind lanes spent 12 minutes on 6 of 42 shards at 25 % CPU each, waiting on
 * the disk (vmstat: 29–61 % iowait). The pages are read and dropped; nothing is kept but the kernel's cache. The
 * reads go through libuv's threadpool, which `scripts/build.ts` sizes for them (`build/threadpool.ts`).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';

/** Files read at once: the gain from 8 to 32 in flight was most of it on this machine's virtual disk. */
export const PREFETCH_CONCURRENCY = 32;

/** What a prefetch read. */
export interface Prefetched {
  files: number;
  bytes: number;
}

/**
 * Read every file named `name` (or whose name `name` accepts) under `roots`, `concurrency` at a time, folder listings under the same limit:
 * the site has a folder per step page, so a walk listing one folder at a time waited ~19 ms a folder on this disk
 * under load, and read ~50 pages a second. Unreadable files and folders are skipped: the indexer that follows
 * reports what it cannot read. Stops early when `signal` aborts (the indexer finished first).
 */
export async function prefetchFiles(
  roots: readonly string[],
  name: string | ((name: string) => boolean),
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<Prefetched> {
  const limit = pLimit(options.concurrency ?? PREFETCH_CONCURRENCY);
  const done: Prefetched = { files: 0, bytes: 0 };
  const stopped = () => options.signal?.aborted === true;
  const wanted = typeof name === 'string' ? (n: string) => n === name : name;
  async function walk(dir: string): Promise<void> {
    if (stopped()) return;
    const entries = await limit(() => (stopped() ? [] : readdir(dir, { withFileTypes: true }))).catch(() => []);
    await Promise.all(
      entries.map(async (entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return walk(full);
        if (!entry.isFile() || !wanted(entry.name)) return;
        const buf = await limit(() => (stopped() ? undefined : readFile(full))).catch(() => undefined);
        if (buf) {
          done.files++;
          done.bytes += buf.length;
        }
      }),
    );
  }
  await Promise.all(roots.map(walk));
  return done;
}

/** The HTML of a page with a search body, about: 1.7 GB for the ~101k of them at 100k steps. */
const PAGE_BYTES = 17_000;

/**
 * Whether the search step reads pages ahead (`ARCHIVE_SEARCH_PREFETCH`: `on`, `off`, or `auto`, the default): in
 * `auto`, when the site's searchable pages are more than half the memory, so the cache cannot be holding them all.
 * A site that fits (100k steps: 1.7 GB on a 24 GiB machine) is indexed straight from the cache its render left,
 * and reading it again would only take CPU from Pagefind.
 */
export function prefetchWanted(sitePages: number, totalMemoryBytes: number, setting: string | undefined): boolean {
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  return sitePages * PAGE_BYTES > totalMemoryBytes / 2;
}
