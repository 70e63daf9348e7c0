/**
 * Reading pages ahead of Pagefind (`src/lib/search/prefetch.ts`): every page of the tree is read, nothing else,
 * a missing folder is no error, an abort stops the walk, and `auto` reads ahead only for a site the memory cannot
 * cache.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefetchFiles, prefetchWanted } from '../../src/lib/search/prefetch.ts';

describe('reading pages ahead of Pagefind', () => {
  let root: string;
  let pageBytes = 0;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'agy-prefetch-'));
    // Two sessions' trees as the site has them: a page per step, text files and assets beside them.
    for (const session of ['a', 'b']) {
      for (let step = 0; step < 120; step++) {
        const dir = path.join(root, 'sessions', session, 'steps', String(step));
        mkdirSync(dir, { recursive: true });
        const html = `<html><body>step ${step} of ${session}</body></html>`;
        writeFileSync(path.join(dir, 'index.html'), html);
        pageBytes += Buffer.byteLength(html);
        writeFileSync(path.join(dir, 'output.txt'), 'not a page');
      }
      writeFileSync(path.join(root, 'sessions', session, 'index.html'), 'x');
      pageBytes += 1;
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads every page of the tree and no other file, a few at a time', async () => {
    const read = await prefetchFiles([path.join(root, 'sessions')], 'index.html', { concurrency: 4 });
    expect(read).toEqual({ files: 242, bytes: pageBytes });
  });

  it('skips a folder that is not there', async () => {
    const read = await prefetchFiles([path.join(root, 'gone'), path.join(root, 'sessions', 'a')], 'index.html');
    expect(read.files).toBe(121);
  });

  it('stops when the indexer is done first', async () => {
    const stop = new AbortController();
    stop.abort();
    expect(await prefetchFiles([path.join(root, 'sessions')], 'index.html', { signal: stop.signal })).toEqual({ files: 0, bytes: 0 });
  });

  it('reads ahead in auto only when the pages are more than half the memory', () => {
    const GiB = 2 ** 30;
    // 100k steps (~101k pages, 1.7 GB) on 24 GiB: the cache holds them. 1M steps (~1M pages, 17 GB): it cannot.
    expect(prefetchWanted(101_000, 24 * GiB, undefined)).toBe(false);
    expect(prefetchWanted(1_008_000, 24 * GiB, 'auto')).toBe(true);
    expect(prefetchWanted(10, 24 * GiB, 'on')).toBe(true);
    expect(prefetchWanted(1_008_000, 24 * GiB, 'off')).toBe(false);
  });
});
