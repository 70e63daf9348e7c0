/**
 * Time the first search results in headless Chromium the way the site's search page gets them: serve a built site
 * from 127.0.0.1, open a blank page on that origin in a fresh browser profile, and start Pagefind as
 * `src/scripts/search-page.ts` does on load: import the primary bundle (`pagefind/pagefind.js`), set the site's
 * options, start EVERY shard listed in `pagefind/shards.json` (`init()` + `mergeIndex()` of the others, all at once).
 * Then time `search(q)` + the first result's `data()`: what a visitor waits for after typing, on a cold HTTP cache.
 * Then `filters()`, timed apart: what the page does when a filter group is first opened (every shard's filter
 * chunks), followed by the query again for the panel's counts.
 *
 * A second fresh page takes the page's `?q=` path (a shared link): the query's chunks are preloaded while the shards
 * start, and the query runs once they have; timed from the import to the first result.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../lib/chromium.ts';
import { serveStatic } from '../lib/static-server.ts';

/** What one timed query found. */
export interface SearchTiming {
  query: string;
  /** The headline `search_ms`: `search(q)` + the first result's `data()` over all shards merged, with Pagefind
   * started as the search page starts it on load (`startupMs`), on a cold HTTP cache. */
  firstMs: number;
  /** Import of the primary bundle's `pagefind.js`, which the search page does on load. */
  importMs: number;
  /** `options()` + `init()` + `mergeIndex()` of every other shard, all at once, as the search page does on load,
   * until the primary bundle has started too (an empty `search('')` returns). */
  initMs: number;
  /** Opening a filter group the first time: `filters()` (every shard's filter chunks) and the query again for
   * the panel's counts. */
  filtersMs: number;
  /** The search start-up on load: import + init and merges, until the page takes a query. */
  startupMs: number;
  /** In a second fresh page, the page's `?q=` path: import, start-up with the query preloaded meanwhile, then the
   * query; from the import to the first result (what a shared link waits for). */
  coldMs: number;
  /** The same query again right after (its index chunks loaded, no filter values yet), ms. */
  repeatMs: number;
  results: number;
  /** Shards searched (from `pagefind/shards.json`). */
  shards: number;
  firstUrl?: string;
}

/** The site's ranking (src/scripts/search-page.ts): exact matches first whichever shard holds them. */
const RANKING = { termSimilarity: 40 };

/** Bundle folders of the shards, relative to `pagefind/`: `''` for shard 0, `shard-<n>/` for the others. */
function shardFolders(siteDir: string): string[] {
  try {
    const listed = JSON.parse(readFileSync(path.join(siteDir, 'pagefind', 'shards.json'), 'utf8')) as string[];
    return listed.length > 0 ? listed : [''];
  } catch {
    return ['']; // an unsharded index (the floor)
  }
}

interface PageRun {
  importMs: number;
  initMs: number;
  ms: number;
  /** The query again, then the first opening of a filter group: not timed on the `?q=` path. */
  repeatMs?: number;
  filtersMs?: number;
  results: number;
  url?: string;
}

/**
 * In `page`, as the search page does: import the primary bundle, start every shard, then time the query, the query
 * again (its chunks loaded), then the first opening of a filter group. With `preload` (the page's `?q=` path), the
 * query's chunks are preloaded while the shards start, and the run ends at the first result.
 */
function runQuery(page: Page, bundles: string[], baseUrl: string, query: string, preload: boolean): Promise<PageRun> {
  return page.evaluate(
    async ({ bundles, baseUrl, query, preload, ranking }) => {
      const [primary, ...rest] = bundles as [string, ...string[]];
      const t0 = performance.now();
      const pagefind = await import(`${primary}pagefind.js`);
      const t1 = performance.now();
      await pagefind.options({ baseUrl, ranking });
      // Every language index of every bundle, as the search page merges them (its main language loads by default).
      const languages = await Promise.all(
        (bundles as string[]).map(async (b) => {
          const entry = (await (await fetch(`${b}pagefind-entry.json`)).json()) as { languages?: Record<string, { page_count?: number }> };
          const found = entry.languages ?? {};
          return Object.keys(found).sort((x, y) => (found[y]?.page_count ?? 0) - (found[x]?.page_count ?? 0)).slice(1);
        }),
      );
      const others = (bundles as string[]).flatMap((b, i) => (languages[i] ?? []).map((language) => pagefind.mergeIndex(i === 0 ? `${b}./` : b, { baseUrl, ranking, language })));
      const started = Promise.all([pagefind.init(), ...rest.map((b: string) => pagefind.mergeIndex(b, { baseUrl, ranking })), ...others]);
      if (preload) pagefind.preload(query).catch(() => {});
      await started;
      // `init()` only creates Pagefind's worker and returns; a search waits for the primary bundle's own start
      // (its wasm and metadata). An empty query returns once it has: start-up ends here, not at the first query.
      await pagefind.search('');
      const t2 = performance.now();
      const found = await pagefind.search(query);
      const first = found.results[0] ? await found.results[0].data() : undefined;
      const t3 = performance.now();
      const timed = { importMs: t1 - t0, initMs: t2 - t1, ms: t3 - t2, results: found.results.length as number, url: first?.url as string | undefined };
      if (preload) return timed;
      const again = await pagefind.search(query);
      if (again.results[0]) await again.results[0].data();
      const t4 = performance.now();
      await pagefind.filters();
      await pagefind.search(query);
      return { ...timed, repeatMs: t4 - t3, filtersMs: performance.now() - t4 };
    },
    { bundles, baseUrl, query, preload, ranking: RANKING },
  );
}

/** Time `query` over every shard of the Pagefind index in `siteDir` (served at `base`). */
export async function timeFirstSearch(siteDir: string, query: string, base = '/'): Promise<SearchTiming> {
  const server = await serveStatic(siteDir, base, { '/__bench__.html': '<!doctype html><title>bench</title>' });
  const { origin } = server;
  const { context, close } = await launchChromium();
  try {
    const prefix = base.endsWith('/') ? base : `${base}/`;
    const bundles = shardFolders(siteDir).map((folder) => `${origin}${prefix}pagefind/${folder}`);
    const page = await context.newPage();
    await page.goto(`${origin}/__bench__.html`);
    const first = await runQuery(page, bundles, prefix, query, false);
    // A second page, fresh HTTP cache: a shared link's `?q=`.
    const second = await context.newPage();
    const cdp = await context.newCDPSession(second);
    await cdp.send('Network.clearBrowserCache');
    await second.goto(`${origin}/__bench__.html`);
    const cold = await runQuery(second, bundles, prefix, query, true);
    return {
      query,
      firstMs: Math.round(first.ms),
      importMs: Math.round(first.importMs),
      initMs: Math.round(first.initMs),
      filtersMs: Math.round(first.filtersMs ?? 0),
      startupMs: Math.round(first.importMs + first.initMs),
      coldMs: Math.round(cold.importMs + cold.initMs + cold.ms),
      repeatMs: Math.round(first.repeatMs ?? 0),
      results: first.results,
      shards: bundles.length,
      firstUrl: first.url,
    };
  } finally {
    await close();
    await server.close();
  }
}
