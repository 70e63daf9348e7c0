/**
 * The page frame on a phone and on a desktop, in a real browser over the demo build (issue 22): at 390 px the header
 * is one row with the nav and search behind "Menu" (it was 222 px, a quarter of the screen), `/` still reaches the
 * search box through the folded menu, Escape folds it again; at 1280 px the nav shows and no Menu button does; every
 * page has one search box.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBuild } from '../helpers/homes.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';

describe.skipIf(!hasChromium())('site header', () => {
  let server: StaticServer;

  beforeAll(async () => {
    const build = await demoBuild();
    expect(build.code, build.output.slice(-2000)).toBe(0);
    server = await serveStatic(build.outDir);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('folds the nav and search behind Menu at 390 px, and opens it for /', async () => {
    const { context, close } = await launchBrowser();
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${server.origin}/about/`);
      const headerHeight = () => page.locator('.site-header').evaluate((el) => el.getBoundingClientRect().height);
      expect(await headerHeight()).toBeLessThan(64);
      expect(await page.locator('.site-nav').isVisible()).toBe(false);
      const toggle = page.locator('[data-menu-toggle]');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await page.locator('.site-nav a', { hasText: 'Report' }).isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      expect(await page.locator('.site-nav').isVisible()).toBe(false);
      // No horizontal scroll from the header.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.locator('body').click({ position: { x: 5, y: 300 } });
      await page.keyboard.press('/');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('site-search');
      expect(await page.locator('#site-search').isVisible()).toBe(true);
    } finally {
      await close();
    }
  });

  it('shows the nav and no Menu button at 1280 px, and one search box on every page kind', async () => {
    const { context, close } = await launchBrowser();
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 1280, height: 800 });
      for (const url of ['/', '/search/?q=vitest', '/about/', '/report/']) {
        await page.goto(`${server.origin}${url}`);
        expect(await page.locator('[data-menu-toggle]').isVisible(), url).toBe(false);
        expect(await page.locator('.site-nav').isVisible(), url).toBe(true);
        expect(await page.locator('input[type="search"]').count(), url).toBe(1);
      }
    } finally {
      await close();
    }
  });
});
