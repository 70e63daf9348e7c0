/**
 * Issue 10, part 2: markup in every field the search page filters on (workspace from `Cwd`, model, product folder
 * name, tool name, step type, status) reaches the search page as text. Pagefind's prebuilt UI put filter values
 * into `innerHTML`, so a workspace holding `<meta http-equiv="refresh">` navigated the page away from
 * `/search/?q=…`. Built under ARCHIVE_BASE, so it also shows the search page works under a sub-path.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { FILTER_FIELDS, SENTINEL, makeHostileFilterHome, type HostileFilterHome } from '../../scripts/make-hostile-home.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import { filterValue } from '../../src/lib/archive/format.ts';
import { buildSite } from '../helpers/build-site.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { filterValueLabel } from '../../src/lib/search/filters.ts';
import { RESULT_LINK, resultCount } from '../helpers/search-ui.ts';

const BASE = '/sub/';

/** Elements the search page itself draws inside its root; anything else there came from somewhere else. */
const ALLOWED = new Set(['FORM', 'LABEL', 'INPUT', 'BUTTON', 'DIV', 'P', 'OL', 'UL', 'LI', 'H2', 'H3', 'A', 'CODE', 'MARK', 'DETAILS', 'SUMMARY', 'FIELDSET', 'LEGEND', 'SPAN', 'NOSCRIPT']);

describe.skipIf(!hasChromium())('search page over markup in every filter field', () => {
  let work: string;
  let hostile: HostileFilterHome;
  let server: StaticServer;
  let context: BrowserContext;
  let close: () => Promise<void>;

  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'agy-search-hostile-'));
    hostile = await makeHostileFilterHome(work);
    const outDir = path.join(work, 'dist');
    const build = await buildSite({ env: { GEMINI_HOME: hostile.home, ARCHIVE_BASE: BASE }, outDir });
    expect(build.code, build.output.slice(-3000)).toBe(0);
    server = await serveStatic(outDir, BASE);
    ({ context, close } = await launchBrowser());
  });
  afterAll(async () => {
    await close?.();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Open the search for the session's word, counting every navigation of the page after it loaded. */
  async function openSearch(): Promise<{ page: Page; navigations: string[] }> {
    const page = await context.newPage();
    const navigations: string[] = [];
    await page.goto(`${server.origin}${BASE}search/?q=${hostile.word}`);
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    expect(await resultCount(page, hostile.word)).toBeGreaterThan(0);
    for (const summary of await page.locator('details.search-filter > summary').all()) await summary.click();
    // The values load when a group is first opened.
    await page.locator('#search-filters[data-loaded="true"]').waitFor({ timeout: 15_000 });
    return { page, navigations };
  }

  it('shows each planted value as text, and no element of the data, and stays on the page', async () => {
    const { page, navigations } = await openSearch();
    for (const field of FILTER_FIELDS) {
      const group = page.locator(`details.search-filter[data-filter="${field}"]`);
      await expect.poll(() => group.count(), { message: field }).toBe(1);
      const labels = await group.locator('.search-filter-value').allTextContents();
      // As the pages tag it (one line, at most 200 characters): the markup itself, character for character, or its
      // human name (a step type, a status) with the value itself in the label's title.
      const value = filterValue(hostile.values[field]);
      expect(labels, field).toContain(filterValueLabel(field, value));
      if (filterValueLabel(field, value) !== value) {
        const titles = await group.locator('.search-filter-value').evaluateAll((spans) => spans.map((e) => e.getAttribute('title')));
        expect(titles, field).toContain(value);
      }
    }
    // Past the planted refresh's 1 s: a <meta http-equiv="refresh"> that became an element has fired by now.
    await page.waitForTimeout(2500);
    const found = await page.evaluate(
      ({ allowed, sentinel }) => {
        const root = document.querySelector('[data-search]');
        return {
          planted: [...document.querySelectorAll('[data-planted]')].map((e) => e.outerHTML),
          metas: [...document.querySelectorAll('meta[http-equiv]')].map((m) => m.getAttribute('http-equiv')),
          strangers: [...(root?.querySelectorAll('*') ?? [])].filter((e) => !allowed.includes(e.tagName)).map((e) => e.tagName),
          links: [...(root?.querySelectorAll('a') ?? [])].map((a) => `${a.className} ${a.getAttribute('href')}`),
          images: document.images.length,
          pwned: (window as unknown as Record<string, unknown>)[sentinel],
        };
      },
      { allowed: [...ALLOWED], sentinel: SENTINEL },
    );
    expect(found.planted).toEqual([]);
    expect(found.metas).toEqual(['Content-Security-Policy']);
    expect(found.strangers).toEqual([]);
    expect(found.images).toBe(0);
    expect(found.pwned).toBeUndefined();
    expect(found.links.length).toBeGreaterThan(0);
    for (const link of found.links) expect(link).toMatch(new RegExp(`^search-result(-section|-step)?-link ${BASE}sessions/${hostile.sessionId}/`));
    expect(navigations).toEqual([]);
    expect(new URL(page.url()).pathname).toBe(`${BASE}search/`);
    await page.close();
  });

  it('filters by a planted value: ticking the workspace keeps the session, result titles show its markup as text', async () => {
    const { page } = await openSearch();
    const all = await resultCount(page, hostile.word);
    const group = page.locator('details.search-filter[data-filter="workspace"]');
    await group.locator('label', { hasText: filterValue(hostile.values.workspace) }).locator('input[type="checkbox"]').check();
    await expect.poll(() => page.locator('#search-status').textContent()).toMatch(/with the ticked filters/);
    expect(await resultCount(page, hostile.word)).toBe(all);
    // Result titles start with the session's title, which is the first request, markup and all, as text.
    const titles = await page.locator(RESULT_LINK).allTextContents();
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) expect(title).toMatch(/^Count the quokkaplanted files <meta data-planted="title" /);
    await page.close();
  });
});
