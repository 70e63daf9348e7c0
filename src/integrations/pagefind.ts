/**
 * The search step: after `astro build`, put back the session folders an incremental build reused, then index the
 * built pages with Pagefind's Node API. Only elements marked `data-pagefind-body` are indexed (session, step and
 * artifact pages, all under `/sessions/`); big code, diff and raw-record blocks carry `data-pagefind-ignore` to keep
 * the index (and its memory) bounded.
 *
 * The index is sharded: sessions are split into `SEARCH_SHARDS` shards by a stable hash of their id, one Pagefind
 * bundle each (`<outDir>/pagefind/` for shard 0, `<outDir>/pagefind/shard-<n>/` for the others), merged in the
 * browser (`public/search.js`, Pagefind's `mergeIndex`). Each shard's bundle is cached under ARCHIVE_CACHE_DIR,
 * keyed by its sessions' reuse keys, so a warm build re-indexes only the shards holding a changed session. A site
 * with no `/sessions/` folder (the benchmark's floor) gets one index of every page, as before.
 * Every `errors` array is checked, and the service is always closed.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import * as pagefindApi from 'pagefind';
import {
  INCREMENTAL_VERSION,
  SEARCH_SHARDS,
  currentPlan,
  restoreReused,
  sessionFoldersIn,
  shardFolder,
  shardOf,
} from '../lib/archive/incremental.ts';

/** Bump when what goes into a shard changes (indexing options, globs): every cached shard is rebuilt. */
const SHARD_FORMAT = 'shard-1';

/** Fail with a message and a hint when Pagefind reports errors. */
function check(step: string, errors: string[]): void {
  if (errors.length > 0) {
    throw new Error(
      `Pagefind ${step} failed: ${errors.join('; ')}. Hint: check that the pagefind package and its platform ` +
        'binary (@pagefind/<platform>) are installed (`npm ci`).',
    );
  }
}

/** Index the pages `glob` matches under `siteDir` (all pages when undefined) into `outputPath`. */
async function indexPages(siteDir: string, glob: string | undefined, outputPath: string): Promise<number> {
  const created = await pagefindApi.createIndex({ forceLanguage: 'en' });
  check('createIndex', created.errors);
  const index = created.index;
  if (!index) throw new Error('Pagefind createIndex returned no index.');
  try {
    const added = await index.addDirectory(glob ? { path: siteDir, glob } : { path: siteDir });
    check('addDirectory', added.errors);
    const written = await index.writeFiles({ outputPath });
    check('writeFiles', written.errors);
    return added.page_count;
  } finally {
    await index.deleteIndex();
  }
}

/** Copy a folder tree by hard links (a cached shard is never written again), falling back to copies. */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, e.name);
    const dst = path.join(to, e.name);
    if (e.isDirectory()) linkTree(src, dst);
    else {
      try {
        linkSync(src, dst);
      } catch {
        copyFileSync(src, dst);
      }
    }
  }
}

/** The glob of a shard's pages: every HTML file under its sessions' folders. */
function shardGlob(ids: string[]): string {
  return ids.length === 1 ? `sessions/${ids[0]}/**/*.html` : `sessions/{${ids.join(',')}}/**/*.html`;
}

/** Index one shard, or take it from the cache when its sessions' keys are unchanged. */
async function buildShard(
  outDir: string,
  cacheRoot: string,
  n: number,
  ids: string[],
  keys: Record<string, string> | undefined,
): Promise<{ pages: number; cached: boolean }> {
  const target = path.join(outDir, 'pagefind', shardFolder(n));
  const shardCache = path.join(cacheRoot, 'search-shards', String(n));
  const key = keys
    ? createHash('sha256')
        .update([INCREMENTAL_VERSION, SHARD_FORMAT, ...ids.map((id) => `${id}:${keys[id] ?? '?'}`)].join('\n'))
        .digest('hex')
        .slice(0, 32)
    : undefined;
  const cached = key ? path.join(shardCache, key) : undefined;
  if (cached && existsSync(path.join(cached, 'pagefind-entry.json'))) {
    linkTree(cached, target);
    return { pages: -1, cached: true };
  }
  const tmp = path.join(cacheRoot, 'search-shards', `tmp-${n}-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  const pages = ids.length > 0 ? await indexPages(outDir, shardGlob(ids), tmp) : await indexPages(outDir, '__no-pages__/*.html', tmp);
  linkTree(tmp, target);
  if (cached) {
    // Keep one bundle per shard: the newest.
    rmSync(shardCache, { recursive: true, force: true });
    mkdirSync(shardCache, { recursive: true });
    renameSync(tmp, cached);
  } else rmSync(tmp, { recursive: true, force: true });
  return { pages, cached: false };
}

/** Restore reused sessions, then build every shard; returns a line for the log. */
async function buildSearch(outDir: string, cacheRoot: string, logger: AstroIntegrationLogger): Promise<string> {
  const restored = restoreReused(outDir);
  if (restored > 0) logger.info(`incremental: put back the pages of ${restored} reused sessions`);
  const ids = sessionFoldersIn(outDir);
  rmSync(path.join(outDir, 'pagefind'), { recursive: true, force: true });
  if (ids.length === 0) {
    const pages = await indexPages(outDir, undefined, path.join(outDir, 'pagefind'));
    return `${pages} pages`;
  }
  const groups: string[][] = Array.from({ length: SEARCH_SHARDS }, () => []);
  for (const id of ids.sort()) groups[shardOf(id)]?.push(id);
  const keys = currentPlan()?.keys;
  let indexed = 0;
  let fromCache = 0;
  let pages = 0;
  const present: number[] = [];
  // Shard 0 always exists (it carries the UI files the search page loads), even with no session of its own.
  for (const [n, group] of groups.entries()) {
    if (n > 0 && group.length === 0) continue;
    if (group.length > 0) present.push(n);
    const shard = await buildShard(outDir, cacheRoot, n, group, keys);
    if (shard.cached) fromCache++;
    else {
      indexed++;
      pages += shard.pages;
    }
  }
  writeFileSync(path.join(outDir, 'pagefind', 'shards.json'), `${JSON.stringify(present.map((n) => shardFolder(n)))}\n`);
  return `${present.length} shards of ${ids.length} sessions (${indexed} indexed, ${pages} pages; ${fromCache} unchanged, from the cache)`;
}

/** The Astro integration that runs the search step at `astro:build:done`. */
export function pagefind(): AstroIntegration {
  return {
    name: 'agy-archive-pagefind',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const outDir = fileURLToPath(dir);
        const cacheRoot = path.resolve(process.env.ARCHIVE_CACHE_DIR || 'node_modules/.cache/agy-archive');
        const started = Date.now();
        try {
          const what = await buildSearch(outDir, cacheRoot, logger);
          logger.info(`search index: ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        } finally {
          await pagefindApi.close();
        }
      },
    },
  };
}
