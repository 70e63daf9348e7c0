/**
 * The search step: after `astro build`, put back the session folders an incremental build reused, then index the
 * built pages with Pagefind's Node API. What is indexed is each session's search documents (one per turn and one
 * per artifact, `/sessions/<id>/search/<doc>.html`, `src/lib/search/document.ts`); step pages are not (the
 * documents hold their words, and each step is a sub-result of its turn).
 *
 * The index is sharded by time (`src/lib/search/shards.ts`: this month's sessions by week, older ones by quarter,
 * a bucket too big for one Pagefind process split), one Pagefind bundle each (`<outDir>/pagefind/` for shard 0,
 * `<outDir>/pagefind/shard-<n>/` for the others), merged in the browser (`src/scripts/search-page.ts`, Pagefind's
 * `mergeIndex`). Which shard holds a session is read from the built `sessions.json`, so the pages and the index
 * agree. Each shard's bundle is cached under ARCHIVE_CACHE_DIR, keyed by its sessions' reuse keys, so a warm build
 * re-indexes only the shards holding a changed session: a new session lands in this week's shard. A site
 * with no `/sessions/` folder (the benchmark's floor) gets one index of every page, as before.
 * Pagefind reads each shard's pages itself (`indexShard`); shards are indexed on up to two Pagefind service
 * processes at once (one per core, see `openLanes`). Every `errors` array is checked, and every service is always
 * closed.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import * as pagefindApi from 'pagefind';
import { INCREMENTAL_VERSION, SEARCH_STEP_ENV, currentPlan, restoreReused, sessionFoldersIn } from '../lib/archive/incremental.ts';
import { indexedPages, shardFolder } from '../lib/search/shards.ts';
import { prefetchFiles, prefetchWanted } from '../lib/search/prefetch.ts';
import { joinFolders } from '../lib/join/current.ts';

/** Bump when what goes into a shard changes (indexing options, globs): every cached shard is rebuilt. */
const SHARD_FORMAT = 'shard-4-bigrams';

/**
 * The same settings for every index (the floor's too): one language for every document, one Pagefind does not
 * segment. The search documents write Chinese and Japanese as overlapping pairs (`src/lib/search/cjk.ts`), which
 * the search page's queries match exactly; Pagefind's own segmenting of a `zh`/`ja` page (a dictionary at index
 * time, the browser's `Intl.Segmenter` at query time) disagreed on compounds and missed or invented words (issue 30).
 */
const INDEX_CONFIG = { forceLanguage: 'en' };

/** Fail with a message and a hint when Pagefind reports errors. */
function check(step: string, errors: string[]): void {
  if (errors.length > 0) {
    throw new Error(
      `Pagefind ${step} failed: ${errors.join('; ')}. Hint: check that the pagefind package and its platform ` +
        'binary (@pagefind/<platform>) are installed (`npm ci`).',
    );
  }
}

type PagefindApi = typeof pagefindApi;

/** Index every page under `siteDir` into `outputPath` (a site with no sessions: the benchmark's floor). */
async function indexDirectory(siteDir: string, outputPath: string): Promise<number> {
  const created = await pagefindApi.createIndex(INDEX_CONFIG);
  check('createIndex', created.errors);
  const index = created.index;
  if (!index) throw new Error('Pagefind createIndex returned no index.');
  try {
    const added = await index.addDirectory({ path: siteDir });
    check('addDirectory', added.errors);
    const written = await index.writeFiles({ outputPath });
    check('writeFiles', written.errors);
    return added.page_count;
  } finally {
    await index.deleteIndex();
  }
}

/** Where a shard's indexed folders wait while Pagefind indexes them: `<outDir>/.search-shard-<n>/sessions/`. */
const SHARD_ROOT_PREFIX = '.search-shard-';

/**
 * The folders of a session that hold its search documents: `search/`, one file per turn and one per artifact
 * (`src/lib/search/document.ts`). Step pages, artifact pages and the session's other pages are not indexed: the
 * documents carry their words.
 */
export const INDEXED_FOLDERS = ['search'];

/**
 * Index one shard's documents into `outputPath` with one Pagefind service. Pagefind reads and parses the pages itself
 * (`addDirectory`: files read and parsed on every core, nothing copied through Node, which cost a third of the
 * step's CPU when each page was read here and sent over the service's pipe). It is pointed at a folder holding only
 * the shard's indexed folders: each session's `search/` is moved (renamed) under
 * `<outDir>/.search-shard-<n>/sessions/<id>/` for the time being, so the URLs Pagefind computes are the site's own,
 * and always moved back. Pagefind walks every folder under the path it is given, so the step pages' folders (one per
 * step) stay where they are, unwalked. (A glob naming the shard's sessions made Pagefind walk the whole out dir for
 * every shard and match each file against hundreds of alternatives.)
 */
async function indexShard(api: PagefindApi, outDir: string, n: number, ids: string[], outputPath: string, prefetch: boolean): Promise<number> {
  const root = path.join(outDir, `${SHARD_ROOT_PREFIX}${n}`);
  const moved: [string, string][] = [];
  const created = await api.createIndex(INDEX_CONFIG);
  check('createIndex', created.errors);
  const index = created.index;
  if (!index) throw new Error('Pagefind createIndex returned no index.');
  try {
    for (const id of ids) {
      for (const folder of INDEXED_FOLDERS) {
        const from = path.join(outDir, 'sessions', id, folder);
        if (!existsSync(from)) continue;
        const to = path.join(root, 'sessions', id, folder);
        mkdirSync(path.dirname(to), { recursive: true });
        renameSync(from, to);
        moved.push([from, to]);
      }
    }
    mkdirSync(root, { recursive: true });
    // Pages read ahead, many at once, while Pagefind reads them a few at a time (`lib/search/prefetch.ts`).
    const stop = new AbortController();
    const ahead = prefetch ? prefetchFiles([root], (name) => name.endsWith('.html'), { signal: stop.signal }) : undefined;
    const added = await index.addDirectory({ path: root, glob: '**/*.html' }).finally(() => stop.abort());
    await ahead;
    check('addDirectory', added.errors);
    const written = await index.writeFiles({ outputPath });
    check('writeFiles', written.errors);
    return added.page_count;
  } finally {
    for (const [from, to] of moved) renameSync(to, from);
    rmSync(root, { recursive: true, force: true });
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

/** Index one shard, or take it from the cache when its sessions' keys are unchanged. */
async function buildShard(
  api: PagefindApi,
  outDir: string,
  cacheRoot: string,
  n: number,
  ids: string[],
  keys: Record<string, string> | undefined,
  marks: Record<string, string>,
  prefetch: boolean,
): Promise<{ pages: number; cached: boolean; key: string | undefined }> {
  const target = path.join(outDir, 'pagefind', shardFolder(n));
  // Keyed by what the bundle holds, not by its number: the numbers of the newer shards move when the weeks of a
  // month join their quarter, and a bundle does not depend on the folder it is served from.
  const key = keys
    ? createHash('sha256')
        .update([INCREMENTAL_VERSION, SHARD_FORMAT, ...ids.map((id) => `${id}:${keys[id] ?? '?'}${marks[id] ? `:${marks[id]}` : ''}`)].join('\n'))
        .digest('hex')
        .slice(0, 32)
    : undefined;
  const cached = key ? path.join(cacheRoot, SHARD_CACHE, key) : undefined;
  if (cached && existsSync(path.join(cached, 'pagefind-entry.json'))) {
    linkTree(cached, target);
    return { pages: -1, cached: true, key };
  }
  const tmp = path.join(cacheRoot, SHARD_CACHE, `tmp-${n}-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  const pages = await indexShard(api, outDir, n, ids, tmp, prefetch);
  linkTree(tmp, target);
  if (cached) {
    rmSync(cached, { recursive: true, force: true });
    renameSync(tmp, cached);
  } else rmSync(tmp, { recursive: true, force: true });
  return { pages, cached: false, key };
}

/** The cache of indexed shards under ARCHIVE_CACHE_DIR, one folder per bundle, named by what it holds. */
const SHARD_CACHE = 'search-bundles';

/** Drop the cached bundles this build did not use (a shard changed or merged): the cache holds one site's shards. */
function pruneShardCache(cacheRoot: string, used: ReadonlySet<string>): void {
  const dir = path.join(cacheRoot, SHARD_CACHE);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) if (!used.has(name)) rmSync(path.join(dir, name), { recursive: true, force: true });
  // The cache of the hash-sharded index this replaced (one folder per shard number).
  rmSync(path.join(cacheRoot, 'search-shards'), { recursive: true, force: true });
}

/**
 * The site's shards as `sessions.json` names them (each session's `searchBundle`, from `src/lib/search/shards.ts`),
 * for the session folders present. A folder `sessions.json` does not list (it should not happen) joins shard 0, so
 * its pages are still searchable. With the searchable pages of the site, as `sessions.json` counts them.
 */
function shardsOfSite(outDir: string, ids: readonly string[]): { groups: string[][]; pages: number } {
  const bundleOf = new Map<string, number>();
  let pages = 0;
  try {
    const entries = JSON.parse(readFileSync(path.join(outDir, 'sessions.json'), 'utf8')) as Array<{ id?: unknown; searchBundle?: unknown; steps?: unknown; artifacts?: unknown }>;
    for (const e of entries) {
      const m = typeof e.searchBundle === 'string' ? /^pagefind\/(?:shard-(\d+)\/)?$/.exec(e.searchBundle) : null;
      if (typeof e.id === 'string' && m) bundleOf.set(e.id, m[1] ? Number(m[1]) : 0);
      pages += indexedPages({ stepCount: typeof e.steps === 'number' ? e.steps : 0, artifactCount: typeof e.artifacts === 'number' ? e.artifacts : 0 });
    }
  } catch {
    // No sessions.json: every session in shard 0.
  }
  const groups: string[][] = [[]];
  for (const id of [...ids].sort()) {
    const n = bundleOf.get(id) ?? 0;
    while (groups.length <= n) groups.push([]);
    groups[n]?.push(id);
  }
  return { groups, pages };
}

/**
 * Pagefind's Node API talks to one service process per module instance, and that process handles its messages one at
 * a time (parsing a page, building an index): shards indexed through one API never use a second core. So each lane
 * beyond the first imports the API again under its own URL (`?lane=N`), a fresh module instance with its own service
 * process. Lanes: one per core, at most 2 (each service holds its shards' pages until written; at 100k pages and 4
 * shards a service peaks well under the 6 GiB budget), and never more than the shards to index. A lane that cannot be
 * started falls back to the shared API.
 */
async function openLanes(wanted: number): Promise<PagefindApi[]> {
  const lanes: PagefindApi[] = [pagefindApi];
  const entry = findPagefindEntry();
  for (let n = 1; n < wanted && entry; n++) {
    try {
      lanes.push((await import(/* @vite-ignore */ `${pathToFileURL(entry).href}?lane=${n}`)) as PagefindApi);
    } catch {
      break;
    }
  }
  return lanes;
}

/** `node_modules/pagefind/lib/index.js`, found from this file and from the working folder (undefined if absent). */
function findPagefindEntry(): string | undefined {
  const starts = [path.dirname(fileURLToPath(import.meta.url)), process.cwd()];
  for (const start of starts) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', 'pagefind', 'lib', 'index.js');
      if (existsSync(candidate)) return candidate;
      if (path.dirname(dir) === dir) break;
    }
  }
  return undefined;
}

/** ARCHIVE_SEARCH_LANES overrides the lane count (1 = one service, as before); default: cores, at most 2. */
function laneCount(): number {
  const given = Number(process.env.ARCHIVE_SEARCH_LANES);
  if (Number.isInteger(given) && given >= 1) return given;
  return Math.max(1, Math.min(2, os.availableParallelism()));
}

export { SEARCH_STEP_ENV };

/** Restore reused sessions, then build every shard; returns a line for the log. */
export async function buildSearch(outDir: string, cacheRoot: string, logger: Pick<AstroIntegrationLogger, 'info'>): Promise<string> {
  const restored = restoreReused(outDir);
  if (restored > 0) logger.info(`incremental: put back the pages of ${restored} reused sessions`);
  // Shard folders a search step killed half-way left in an out dir: never published (a build whose search step
  // did not finish commits no manifest, so the next one renders every session again).
  for (const name of readdirSync(outDir)) if (name.startsWith(SHARD_ROOT_PREFIX)) rmSync(path.join(outDir, name), { recursive: true, force: true });
  const ids = sessionFoldersIn(outDir);
  rmSync(path.join(outDir, 'pagefind'), { recursive: true, force: true });
  if (ids.length === 0) {
    const pages = await indexDirectory(outDir, path.join(outDir, 'pagefind'));
    return `${pages} pages`;
  }
  const { groups, pages: sitePages } = shardsOfSite(outDir, ids);
  const prefetch = prefetchWanted(sitePages, os.totalmem(), process.env.ARCHIVE_SEARCH_PREFETCH);
  if (prefetch) logger.info(`reading pages ahead of Pagefind (${sitePages} searchable pages; ARCHIVE_SEARCH_PREFETCH=off to stop it)`);
  const keys = currentPlan()?.keys;
  const marks = currentPlan()?.familyMarks;
  // Shard 0 always exists (it carries pagefind.js, which the search page loads), even with no session of its own.
  const present = groups.flatMap((group, n) => (n === 0 || group.length > 0 ? [n] : []));
  // Biggest shards first, so two lanes end together.
  const queue = [...present].sort((a, b) => (groups[b]?.length ?? 0) - (groups[a]?.length ?? 0));
  const lanes = await openLanes(Math.min(laneCount(), queue.length));
  let indexed = 0;
  let fromCache = 0;
  let pages = 0;
  const used = new Set<string>();
  try {
    await Promise.all(
      lanes.map(async (api) => {
        for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
          const shard = await buildShard(api, outDir, cacheRoot, n, groups[n] ?? [], keys, marks ?? {}, prefetch);
          if (shard.key) used.add(shard.key);
          if (shard.cached) fromCache++;
          else {
            indexed++;
            pages += shard.pages;
          }
        }
      }),
    );
  } finally {
    await Promise.all(lanes.slice(1).map((api) => api.close()));
  }
  if (keys) pruneShardCache(cacheRoot, used);
  const withSessions = present.filter((n) => (groups[n]?.length ?? 0) > 0);
  writeFileSync(path.join(outDir, 'pagefind', 'shards.json'), `${JSON.stringify(withSessions.map((n) => shardFolder(n)))}\n`);
  return `${withSessions.length} shards of ${ids.length} sessions (${indexed} indexed, ${pages} pages; ${fromCache} unchanged, from the cache) on ${lanes.length} lanes`;
}

/** The search step of a build into `outDir`, logged; every Pagefind service is closed after it. */
export async function runSearchStep(outDir: string, cacheRoot: string, logger: Pick<AstroIntegrationLogger, 'info'>): Promise<void> {
  const started = Date.now();
  try {
    const what = await buildSearch(outDir, cacheRoot, logger);
    logger.info(`search index: ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await pagefindApi.close();
  }
}

/**
 * The search step of a joined site (ARCHIVE_JOIN): nothing to index. Its own pages list sessions (their pages,
 * with the search bodies, are in the parts, indexed there), and its search page merges the parts' bundles.
 */
export function joinSearchStep(partDirs: readonly string[]): string {
  return `search: nothing to index; the search page merges the bundles of ${partDirs.length} parts`;
}

/** The Astro integration that runs the search step at `astro:build:done`. */
export function pagefind(): AstroIntegration {
  return {
    name: 'agy-archive-pagefind',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        // A build split between render processes: `scripts/build.ts` runs the search step once every part is done.
        if (process.env[SEARCH_STEP_ENV] === 'after-parts') return;
        const parts = joinFolders();
        if (parts.length > 0) {
          logger.info(joinSearchStep(parts));
          return;
        }
        await runSearchStep(fileURLToPath(dir), path.resolve(process.env.ARCHIVE_CACHE_DIR || 'node_modules/.cache/agy-archive'), logger);
      },
    },
  };
}
