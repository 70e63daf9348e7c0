/**
 * Time the first search results in headless Chromium the way the site's search page gets them: serve a built site
 * from 127.0.0.1, open a blank page on that origin in a fresh browser profile, import the primary bundle
 * (`pagefind/pagefind.js`), then set the site's options and start Pagefind over EVERY shard listed in
 * `pagefind/shards.json` (`init()` + `mergeIndex()` of the others, all at once, as `public/search.js` does on load),
 * each timed apart; then time `search(q)` + the first result's `data()`: what a visitor waits for after typing, on a
 * cold HTTP cache. A second fresh page times the same query with no start-up before it (the query pays for it).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';

/** The arguments the issue names for every headless run. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Where Chromium is: CHROMIUM_PATH, else the Debian package's path. */
export function chromiumPath(env = process.env): string {
  return env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/** Stop early, with a hint, when the browser is missing (the search timing needs it). */
export function assertChromium(env = process.env): string {
  const exe = chromiumPath(env);
  if (!existsSync(exe)) {
    throw new Error(
      `Chromium was not found at ${exe}, so search_ms cannot be measured. Hint: install the distribution package ` +
        '(`apt-get install chromium`), set CHROMIUM_PATH to a Chromium binary, or pass --skip-search.',
    );
  }
  return exe;
}

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

/** The site's ranking (public/search.js): exact matches first whichever shard holds them. */
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

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A static server for `dir` mounted at `base`, plus a blank page at `/__bench__.html`. */
function serve(dir: string, base: string): Promise<{ server: Server; origin: string }> {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/__bench__.html') {
      res.writeHead(200, { 'content-type': TYPES['.html'] as string });
      res.end('<!doctype html><title>bench</title>');
      return;
    }
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404).end();
      return;
    }
    let file = path.join(dir, decodeURIComponent(url.pathname.slice(prefix.length)));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = path.join(file, 'index.html');
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, origin: `http://127.0.0.1:${port}` });
    });
  });
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
  const executablePath = assertChromium();
  const { chromium } = await import('playwright-core');
  const { server, origin } = await serve(path.resolve(siteDir), base);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'agy-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: CHROMIUM_ARGS });
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
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
