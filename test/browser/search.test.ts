/**
 * Search in a real browser over the demo build served on 127.0.0.1: a word from a fixture step finds its step,
 * the result leads to the step page showing the word, and a product filter narrows the results. Runs under the
 * site's CSP, so it also proves Pagefind works with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { demoBuild } from '../helpers/homes.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import { RESULT_LINK, expectProductFilterNarrows, resultCount } from '../helpers/search-ui.ts';

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
    const stepLink = page.locator(`${RESULT_LINK}[href*="/steps/"]`).first();
    await stepLink.waitFor({ timeout: 15_000 });
    const href = await stepLink.getAttribute('href');
    await stepLink.click();
    await page.waitForURL((url) => url.pathname === href);
    expect(await page.locator('main').innerText()).toMatch(/logslice/i);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('narrows the results with the product filter', async () => {
    await expectProductFilterNarrows(context, server.origin, 'README');
  });
});
