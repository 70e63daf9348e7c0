/**
 * Time the first search results in headless Chromium the way the site's search page gets them: serve a built site
 * from 127.0.0.1, open a blank page on that origin in a fresh browser profile, import the primary bundle
 * (`pagefind/pagefind.js`), then set the site's options and start Pagefind over EVERY shard listed in
 * `pagefind/shards.json` (`init()` + `mergeIndex()` of the others, all at once, as `src/scripts/search-page.ts` does on load),
 * each timed apart; then time `search(q)` + the first result's `data()`: what a visitor waits for after typing, on a
 * cold HTTP cache. A second fresh page times the same query with no start-up before it (the query pays for it).
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
   * started as the search page starts it on load (`initMs`), on a cold HTTP cache. */
  firstMs: number;
  /** Import of the primary bundle's `pagefind.js`, which the search page does on load. */
  importMs: number;
  /** `options()` + `init()` + `mergeIndex()` of every other shard, all at once, as the search page does on load. */
  initMs: number;
  /** Same as `firstMs` (kept for the report's wording: the query after init). */
  afterInitMs: number;
  /** In a second fresh page: the same query right after the import and the `mergeIndex()` calls, without waiting
   * for them: a query typed before start-up ended (it pays for wasm, entries and metadata of every shard). */
  coldMs: number;
  /** The same query again in the first page (bundle and index chunks cached), ms. */
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
  results: number;
  url?: string;
}

/** In `page`: import the primary bundle, start every shard (awaited when `wait`), then time the query. */
function runQuery(page: Page, bundles: string[], baseUrl: string, query: string, wait: boolean): Promise<PageRun> {
  return page.evaluate(
    async ({ bundles, baseUrl, query, wait, ranking }) => {
      const [primary, ...rest] = bundles as [string, ...string[]];
      const t0 = performance.now();
      const pagefind = await import(`${primary}pagefind.js`);
      const t1 = performance.now();
      // Called once per page: a second call would merge the shards again.
      const w = window as unknown as { __started?: Promise<unknown> };
      if (!w.__started) {
        await pagefind.options({ baseUrl, ranking });
        w.__started = Promise.all([pagefind.init(), ...rest.map((b: string) => pagefind.mergeIndex(b, { baseUrl, ranking }))]);
      }
      if (wait) await w.__started;
      const t2 = performance.now();
      const found = await pagefind.search(query);
      const first = found.results[0] ? await found.results[0].data() : undefined;
      return { importMs: t1 - t0, initMs: t2 - t1, ms: performance.now() - t2, results: found.results.length as number, url: first?.url as string | undefined };
    },
    { bundles, baseUrl, query, wait, ranking: RANKING },
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
    const first = await runQuery(page, bundles, prefix, query, true);
    const repeat = await runQuery(page, bundles, prefix, query, true);
    // A second page, fresh HTTP cache: the query typed before start-up ended.
    const second = await context.newPage();
    const cdp = await context.newCDPSession(second);
    await cdp.send('Network.clearBrowserCache');
    await second.goto(`${origin}/__bench__.html`);
    const cold = await runQuery(second, bundles, prefix, query, false);
    return {
      query,
      firstMs: Math.round(first.ms),
      importMs: Math.round(first.importMs),
      initMs: Math.round(first.initMs),
      afterInitMs: Math.round(first.ms),
      coldMs: Math.round(cold.ms + cold.initMs),
      repeatMs: Math.round(repeat.ms),
      results: first.results,
      shards: bundles.length,
      firstUrl: first.url,
    };
  } finally {
    await close();
    await server.close();
  }
}
