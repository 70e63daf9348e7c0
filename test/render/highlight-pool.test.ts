import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearHighlightMemoryCache, highlightCode, highlightHead, isHighlightKnown, highlightCacheKey } from '../../src/lib/render/highlight.ts';
import {
  closeHighlightPool,
  drainHighlightPool,
  findWorkerFile,
  highlightPoolStats,
  highlightWorkerCount,
  prehighlight,
} from '../../src/lib/render/highlight-pool.ts';

let cacheRoot: string;
const previous = { dir: process.env.ARCHIVE_CACHE_DIR, workers: process.env.ARCHIVE_HIGHLIGHT_WORKERS };
beforeAll(async () => {
  cacheRoot = await mkdtemp(path.join(os.tmpdir(), 'render-pool-'));
  process.env.ARCHIVE_CACHE_DIR = cacheRoot;
  process.env.ARCHIVE_HIGHLIGHT_WORKERS = '1';
});
afterAll(async () => {
  await closeHighlightPool();
  for (const [name, value] of [['ARCHIVE_CACHE_DIR', previous.dir], ['ARCHIVE_HIGHLIGHT_WORKERS', previous.workers]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await rm(cacheRoot, { recursive: true, force: true });
});

const code = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `const ${tag}${i} = "<${i}>"; // ${tag}`).join('\n');

describe('highlight pool', () => {
  it('reads the worker count from ARCHIVE_HIGHLIGHT_WORKERS (0 turns it off)', () => {
    expect(highlightWorkerCount({ ARCHIVE_HIGHLIGHT_WORKERS: '0' })).toBe(0);
    expect(highlightWorkerCount({ ARCHIVE_HIGHLIGHT_WORKERS: '2' })).toBe(2);
    expect(highlightWorkerCount({ ARCHIVE_HIGHLIGHT_WORKERS: 'many' })).toBe(0);
    expect(findWorkerFile()).toMatch(/highlight-worker\.ts$/);
  });

  it('fills the cache from a worker, and a page gets exactly what it would have highlighted itself', async () => {
    const blocks = [code(30, 'alpha'), code(200, 'beta')];
    const heads = blocks.map((b) => highlightHead(b, 'typescript'));
    prehighlight(heads.map((h) => ({ code: h.headText, lang: h.language })));
    await drainHighlightPool();
    expect(highlightPoolStats.done).toBe(2);
    for (const h of heads) expect(isHighlightKnown(highlightCacheKey(h.headText, h.language)?.key ?? '')).toBe(true);
    const fromWorker = await Promise.all(blocks.map((b) => highlightCode(b, 'typescript')));

    // The same blocks highlighted on this thread, from nothing (a fresh cache folder, no memory cache).
    await closeHighlightPool();
    clearHighlightMemoryCache();
    process.env.ARCHIVE_CACHE_DIR = await mkdtemp(path.join(os.tmpdir(), 'render-pool-inline-'));
    process.env.ARCHIVE_HIGHLIGHT_WORKERS = '0';
    try {
      const inline = await Promise.all(blocks.map((b) => highlightCode(b, 'typescript')));
      expect(fromWorker).toEqual(inline);
      expect(fromWorker[0]).toMatch(/sl-[0-9a-f]{6}/);
    } finally {
      await rm(process.env.ARCHIVE_CACHE_DIR, { recursive: true, force: true });
      process.env.ARCHIVE_CACHE_DIR = cacheRoot;
      process.env.ARCHIVE_HIGHLIGHT_WORKERS = '1';
    }
  });

  it('does not queue a block a page is already on, and a page asking for a queued block gets its lines', async () => {
    clearHighlightMemoryCache();
    const block = code(60, 'gamma');
    const queued = highlightPoolStats.queued;
    const direct = highlightCode(block, 'typescript'); // the page starts first
    prehighlight([{ code: block, lang: 'typescript' }]);
    expect(highlightPoolStats.queued).toBe(queued);
    // Queued first, then asked for by a page while the worker has it: the page gets the worker's lines.
    const other = code(60, 'delta');
    prehighlight([{ code: other, lang: 'typescript' }]);
    const [a, b] = await Promise.all([direct, highlightCode(other, 'typescript')]);
    await drainHighlightPool();
    expect(highlightPoolStats.queued).toBe(queued + 1);
    expect(a).toContain('gamma59');
    expect(b).toContain('delta59');
  });
});
