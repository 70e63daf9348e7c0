/**
 * Time the first search results in headless Chromium: serve a built site from 127.0.0.1, open a blank page on that
 * origin in a fresh browser profile, import `/pagefind/pagefind.js` (timed apart: a search page does it on load),
 * then time `search(q)` + the first result's `data()`: what a visitor waits for after typing, on a cold cache.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
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
  /** `search(q)` + the first result's `data()` right after the bundle is imported, in a fresh profile: the
   * headline `search_ms` (includes Pagefind's lazy init: wasm, entry and the index chunks the query needs). */
  firstMs: number;
  /** `import('/pagefind/pagefind.js')` alone, which a search page does on load, before anyone types. */
  importMs: number;
  /** `search(q)` + first `data()` in a second fresh page whose script ran `pagefind.init()` before the timer
   * started, as a search page that initialises Pagefind on load (or on focus) would; `initMs` is that init. */
  afterInitMs: number;
  initMs: number;
  /** The same query again in the same page (bundle and index chunks cached), ms. */
  repeatMs: number;
  results: number;
  firstUrl?: string;
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

/** Time `query` against the Pagefind bundle in `siteDir` (served at `base`). */
export async function timeFirstSearch(siteDir: string, query: string, base = '/'): Promise<SearchTiming> {
  const executablePath = assertChromium();
  const { chromium } = await import('playwright-core');
  const { server, origin } = await serve(path.resolve(siteDir), base);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'agy-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/__bench__.html`);
    const bundle = `${origin}${base.endsWith('/') ? base : `${base}/`}pagefind/pagefind.js`;
    const run = () =>
      page.evaluate(
        async ({ bundle, query }) => {
          const t0 = performance.now();
          const pagefind = await import(bundle);
          const t1 = performance.now();
          const found = await pagefind.search(query);
          const first = found.results[0] ? await found.results[0].data() : undefined;
          return { importMs: t1 - t0, ms: performance.now() - t1, results: found.results.length as number, url: first?.url as string | undefined };
        },
        { bundle, query },
      );
    const first = await run();
    const repeat = await run();
    // A second page, fresh HTTP cache: init first, then the timed query.
    await context.clearCookies();
    const second = await context.newPage();
    const cdp = await context.newCDPSession(second);
    await cdp.send('Network.clearBrowserCache');
    await second.goto(`${origin}/__bench__.html`);
    const warmed = await second.evaluate(
      async ({ bundle, query }) => {
        const pagefind = await import(bundle);
        const t0 = performance.now();
        await pagefind.init();
        const t1 = performance.now();
        const found = await pagefind.search(query);
        if (found.results[0]) await found.results[0].data();
        return { initMs: t1 - t0, ms: performance.now() - t1 };
      },
      { bundle, query },
    );
    return {
      query,
      firstMs: Math.round(first.ms),
      importMs: Math.round(first.importMs),
      initMs: Math.round(warmed.initMs),
      afterInitMs: Math.round(warmed.ms),
      repeatMs: Math.round(repeat.ms),
      results: first.results,
      firstUrl: first.url,
    };
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
