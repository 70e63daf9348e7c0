/**
 * Search in a real browser over the demo build served on 127.0.0.1: a word from a fixture step finds its turn, with
 * the step under it leading to the step page showing the word; results are grouped by session and turn, steps say
 * how they ended, a call and its output are one hit, and the outcome, session and product filters narrow the
 * results. Runs under the site's CSP, so it also proves Pagefind works with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { demoBuild } from '../helpers/homes.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import { RESULT_LINK, STEP_LINK, expectProductFilterNarrows, resultCount } from '../helpers/search-ui.ts';
import { FILTER_ORDER, filterLabel } from '../../src/lib/search/filters.ts';

describe.skipIf(!hasChromium())('search in the browser', () => {
  let server: StaticServer;
  let context: BrowserContext;
  let close: () => Promise<void>;
  const errors: string[] = [];

  beforeAll(async () => {
    const build = await demoBuild();
    expect(build.code, build.output.slice(-2000)).toBe(0);
    server = await serveStatic(build.outDir);
    ({ context, close } = await launchBrowser());
  });
  afterAll(async () => {
    await close?.();
    await server?.close();
  });

  it('finds a word from a step and follows the result to the step page', async () => {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused/i.test(m.text())) errors.push(m.text());
    });
    // The search box on every page submits to /search/?q=…
    await page.goto(`${server.origin}/`);
    await page.locator('#site-search').fill('logslice');
    await page.locator('#site-search').press('Enter');
    await page.waitForURL(/\/search\/\?q=logslice/);
    expect(await resultCount(page, 'logslice')).toBeGreaterThan(0);
    const stepLink = page.locator(`${STEP_LINK}[href*="/steps/"]`).first();
    await stepLink.waitFor({ timeout: 15_000 });
    const href = await stepLink.getAttribute('href');
    await stepLink.click();
    await page.waitForURL((url) => url.pathname === href);
    expect(await page.locator('main').innerText()).toMatch(/logslice/i);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('groups results by session and turn with their step hits, one hit for a call and its output, and filters failures and sessions', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/search/?q=vitest`);
    const all = await resultCount(page, 'vitest');
    // The turn is the result: `<session title> › Turn N: <request>`, linking to the turn in the conversation.
    const turn = page.locator('li.search-result', { has: page.locator(RESULT_LINK, { hasText: /^Per-API-key rate limiting for the orders API › Turn 2: Plan looks good/ }) });
    await turn.waitFor({ timeout: 15_000 });
    expect(await turn.locator(RESULT_LINK).first().getAttribute('href')).toMatch(/^\/sessions\/04c6284a-[^/]+\/(?:conversation\/\d+\/)?#turn-2$/);
    // Its steps under it: a call names its tool, what it acted on and how it ended, and links to its step page.
    const steps = await turn.locator(STEP_LINK).allTextContents();
    expect(steps).toContain('step 52 · run_command npx vitest run test/rate-limit.test.ts · exit 1');
    expect(await turn.locator(STEP_LINK, { hasText: /^step 52 · / }).getAttribute('href')).toMatch(/\/steps\/52\/$/);
    // The output of step 52 is no hit of its own: the call and its output are one.
    expect(steps.filter((t) => /output of run_command/.test(t))).toEqual([]);
    // One list item per session: a session's other turns fold under it.
    const sessions = await page.locator('li.search-result').evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.session));
    expect(new Set(sessions).size).toBe(sessions.length);
    // Excerpts hold the page's words, not badge text run into them or escaped line breaks.
    for (const excerpt of await page.locator('.search-result-excerpt').allTextContents()) {
      expect(excerpt).not.toMatch(/sandboxedexit|exit \d+goes|DONEantigravity|Cwd\/|Outcome[a-z]|\\n\\n/);
    }
    const outcome = page.locator('details.search-filter[data-filter="outcome"]');
    await outcome.locator('summary').click();
    await page.locator('#search-filters[data-loaded="true"]').waitFor({ timeout: 15_000 });
    await outcome.locator('label', { hasText: 'failed' }).locator('input').check();
    await expect.poll(async () => resultCount(page, 'vitest'), { timeout: 15_000 }).toSatisfy((n: number) => n > 0 && n < all);
    await outcome.locator('label', { hasText: 'failed' }).locator('input').uncheck();
    await expect.poll(async () => resultCount(page, 'vitest'), { timeout: 15_000 }).toBe(all);
    // README is in four sessions: the session filter keeps one.
    await page.goto(`${server.origin}/search/?q=README`);
    const everywhere = await resultCount(page, 'README');
    const sessionFilter = page.locator('details.search-filter[data-filter="session"]');
    await sessionFilter.locator('summary').click();
    await page.locator('#search-filters[data-loaded="true"]').waitFor({ timeout: 15_000 });
    await sessionFilter.locator('label', { hasText: 'Brewbox landing page · 1ef4ccf5' }).locator('input').check();
    await expect.poll(async () => resultCount(page, 'README'), { timeout: 15_000 }).toSatisfy((n: number) => n > 0 && n < everywhere);
    for (const title of await page.locator(RESULT_LINK).allTextContents()) expect(title).toMatch(/^Brewbox landing page(?: ›|$)/);
    await page.close();
  });

  it('says on the page that quoted words are found next to each other, and keeps old ?q= links working', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/search/?q=${encodeURIComponent('"npx vitest"')}`);
    expect(await page.locator('.search-help').innerText()).toMatch(/quotes/);
    expect(await resultCount(page, '"npx vitest"')).toBeGreaterThan(0);
    await page.close();
  });

  it('draws the filter groups at once and loads their values only when one is first opened, counted for the query', async () => {
    const page = await context.newPage();
    const filterChunks: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('.pf_filter')) filterChunks.push(request.url());
    });
    await page.goto(`${server.origin}/search/?q=vitest`);
    const all = await resultCount(page, 'vitest');
    expect(all).toBeGreaterThan(1);
    // Every group is listed, closed, before any value has loaded: searching fetched no filter chunk.
    expect(await page.locator('details.search-filter > summary').allTextContents()).toEqual(FILTER_ORDER.map(filterLabel));
    expect(await page.locator('details.search-filter[open]').count()).toBe(0);
    expect(filterChunks).toEqual([]);
    const product = page.locator('details.search-filter[data-filter="product"]');
    await product.locator('summary').click();
    await page.locator('#search-filters[data-loaded="true"]').waitFor({ timeout: 15_000 });
    expect(filterChunks.length).toBeGreaterThan(0);
    // Each page tags one product, so once the query has been counted the product counts add up to its results.
    const productTotal = async () =>
      (await product.locator('.search-filter-count').allTextContents()).reduce((sum, text) => sum + Number(text.replaceAll(',', '')), 0);
    await expect.poll(productTotal, { timeout: 15_000 }).toBe(all);
    // The results were left as they were while the panel was counted.
    expect(await resultCount(page, 'vitest')).toBe(all);
    await page.close();
  });

  it('narrows the results with the product filter', async () => {
    await expectProductFilterNarrows(context, server.origin, 'README');
  });
});
