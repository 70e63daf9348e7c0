/** What the browser tests read off Pagefind's search UI. */
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The result count the UI announces for `query`, once it has searched. */
export async function resultCount(page: Page, query: string): Promise<number> {
  const message = page.locator('.pagefind-ui__message');
  await expect.poll(async () => (await message.textContent()) ?? '', { timeout: 15_000 }).toMatch(new RegExp(`result.* for ${query}`, 'i'));
  return Number(((await message.textContent()) ?? '').match(/(\d+)/)?.[1] ?? 0);
}

/** Search `query` on the search page at `origin`, tick the first product and expect fewer, but some, results. */
export async function expectProductFilterNarrows(context: BrowserContext, origin: string, query: string): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${origin}/search/?q=${encodeURIComponent(query)}`);
  const all = await resultCount(page, query);
  expect(all).toBeGreaterThan(1);
  const block = page.locator('.pagefind-ui__filter-panel details', { hasText: 'Product' });
  await block.locator('summary').click();
  await block.locator('input[type="checkbox"]').first().check();
  // The UI can announce "0 results" for a moment while the filtered search loads: wait for the settled count.
  await expect.poll(async () => resultCount(page, query), { timeout: 15_000 }).toSatisfy((n: number) => n > 0 && n < all);
  await page.close();
}
