/** What the browser tests read off the search page (src/scripts/search-page.ts). */
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/** A result's title link (a turn, or an artifact page). */
export const RESULT_LINK = 'a.search-result-link';

/** A step hit's link under its turn (to the step page). */
export const STEP_LINK = 'a.search-result-step-link';

/** The result count the page announces for `query`, once it has searched. */
export async function resultCount(page: Page, query: string): Promise<number> {
  const message = page.locator('#search-status');
  const done = new RegExp(`(\\d[\\d,]* results?|No results) for .${query}.`, 'i');
  await expect.poll(async () => (await message.textContent()) ?? '', { timeout: 15_000 }).toMatch(done);
  const text = (await message.textContent()) ?? '';
  return /^No results/i.test(text) ? 0 : Number(text.match(/^([\d,]+)/)?.[1]?.replaceAll(',', '') ?? 0);
}

/** Search `query` on the search page at `origin`, tick the first product and expect fewer, but some, results. */
export async function expectProductFilterNarrows(context: BrowserContext, origin: string, query: string): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${origin}/search/?q=${encodeURIComponent(query)}`);
  const all = await resultCount(page, query);
  expect(all).toBeGreaterThan(1);
  const block = page.locator('details.search-filter[data-filter="product"]');
  await block.locator('summary').click();
  // The values load when a group is first opened, then the panel counts the query: tick once it has.
  await page.locator('#search-filters[data-loaded="true"]').waitFor({ timeout: 15_000 });
  await block.locator('input[type="checkbox"]').first().check();
  // Ticking searches again: wait for the count of the filtered search.
  await expect.poll(async () => resultCount(page, query), { timeout: 15_000 }).toSatisfy((n: number) => n > 0 && n < all);
  await page.close();
}
