/**
 * Search in a real browser over the demo build served on 127.0.0.1: a word from a fixture step finds its step,
 * the result leads to the step page showing the word, and a product filter narrows the results. Runs under the
 * site's CSP, so it also proves Pagefind works with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { demoBuild } from '../helpers/homes.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { serveStatic, type StaticServer } from '../helpers/static-server.ts';

/** "37 results for npm" → 37 */
async function resultCount(page: Page, query: string): Promise<number> {
  const message = page.locator('.pagefind-ui__message');
  await expect.poll(async () => (await message.textContent()) ?? '', { timeout: 15_000 }).toMatch(new RegExp(`result.* for ${query}`, 'i'));
  return Number(((await message.textContent()) ?? '').match(/(\d+)/)?.[1] ?? 0);
}

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
    const stepLink = page.locator('a.pagefind-ui__result-link[href*="/steps/"]').first();
    await stepLink.waitFor({ timeout: 15_000 });
    const href = await stepLink.getAttribute('href');
    await stepLink.click();
    await page.waitForURL((url) => url.pathname === href);
    expect(await page.locator('main').innerText()).toMatch(/logslice/i);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('narrows the results with the product filter', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/search/?q=README`);
    const all = await resultCount(page, 'README');
    expect(all).toBeGreaterThan(1);
    const block = page.locator('.pagefind-ui__filter-panel details', { hasText: 'Product' });
    await block.locator('summary').click();
    await block.locator('input[type="checkbox"]').first().check();
    await expect.poll(async () => resultCount(page, 'README'), { timeout: 15_000 }).toBeLessThan(all);
    expect(await resultCount(page, 'README')).toBeGreaterThan(0);
    await page.close();
  });
});
