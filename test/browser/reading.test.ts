/**
 * Reading at 390 px in a real browser over the demo build (issue 22): no session page, failures page or artifact
 * page scrolls sideways; a closed call's row keeps its badge and time on screen (a long line is cut in the middle,
 * not at the end); the skip link moves focus to the conversation; an artifact's history shows one version at a
 * time and another at a click, with no script.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBuild, readDemoSessions } from '../helpers/homes.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import type { SharedBuild } from '../helpers/shared-build.ts';
import { htmlFiles } from '../helpers/site-files.ts';

const IDE = '04c6284a-930e-444f-982e-37e931b8daf3';

describe.skipIf(!hasChromium())('reading at 390 px in the browser', () => {
  let build: SharedBuild;
  let server: StaticServer;
  let sessionIds: string[];

  beforeAll(async () => {
    build = await demoBuild();
    expect(build.code, build.output.slice(-2000)).toBe(0);
    server = await serveStatic(build.outDir);
    sessionIds = (await readDemoSessions()).map((s) => s.id);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('scrolls no session, failures or artifact page sideways, and keeps every closed row\'s badge on screen', async () => {
    const { context, close } = await launchBrowser();
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      const artifacts = htmlFiles(build.outDir).filter((f) => /^sessions\/[^/]+\/artifacts\/[^/]+\/index\.html$/.test(f)).map((f) => `/${f.replace(/index\.html$/, '')}`);
      const urls = [...sessionIds.flatMap((id) => [`/sessions/${id}/`, `/sessions/${id}/failures/`]), ...artifacts];
      const wide: string[] = [];
      const cut: string[] = [];
      for (const url of urls) {
        await page.goto(`${server.origin}${url}`);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > 390) wide.push(`${url}: ${width}`);
        const offscreen = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('details.call:not([open]) > summary > .badge, details.call:not([open]) > summary > .call-time, .failure-line > .badge')]
            .filter((b) => b.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .map((b) => b.closest('[id]')?.id ?? b.textContent ?? ''),
        );
        cut.push(...offscreen.map((id) => `${url} ${id}`));
      }
      expect(wide).toEqual([]);
      expect(cut).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps /report/ and the audit views on a phone: no sideways scroll, session ids whole, badges broken at hyphens only', async () => {
    const { context, close } = await launchBrowser();
    try {
      const page = await context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      const problems: string[] = [];
      let ids = 0;
      for (const url of ['/report/', '/audit/', '/audit/commands/', '/audit/errors/', '/audit/files/']) {
        await page.goto(`${server.origin}${url}`);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > 390) problems.push(`${url}: ${width} px wide`);
        const found = await page.evaluate(() => {
          const out: string[] = [];
          // An 8-character id cut over two lines ("8603314" / "4") has two line boxes.
          const links = [...document.querySelectorAll<HTMLElement>('.report-table td > a.mono')];
          for (const a of links) if (a.getClientRects().length > 1) out.push(`id ${a.textContent} split`);
          for (const b of document.querySelectorAll<HTMLElement>('.report-table .badge')) {
            // At most one line per hyphen-separated part: password-assignment broke after every letter.
            const line = parseFloat(getComputedStyle(b).lineHeight) || 20;
            const lines = Math.round(b.getBoundingClientRect().height / line);
            if (lines > (b.textContent ?? '').split('-').length) out.push(`badge ${b.textContent} in ${lines} lines`);
          }
          return { out, ids: links.length };
        });
        ids += found.ids;
        problems.push(...found.out.map((p) => `${url}: ${p}`));
      }
      expect(ids).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('moves focus to the conversation from the skip link', async () => {
    const { context, close } = await launchBrowser();
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/sessions/${IDE}/`);
      const skip = page.locator('nav.jump a[href="#conversation"]');
      expect(await skip.count()).toBe(1);
      await skip.focus();
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('conversation');
    } finally {
      await close();
    }
  });

  it("shows one version of an artifact at a time, and another at a click, with no script", async () => {
    const { context, close } = await launchBrowser();
    try {
      await context.route('**/*.js', (route) => route.abort());
      const page = await context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      const artifacts = htmlFiles(build.outDir).filter((f) => /^sessions\/[^/]+\/artifacts\/[^/]+\/index\.html$/.test(f)).map((f) => `/${f.replace(/index\.html$/, '')}`);
      let checked = 0;
      for (const url of artifacts) {
        await page.goto(`${server.origin}${url}`);
        const tabs = page.locator('nav.version-picker a.version-tab');
        const count = await tabs.count();
        if (count < 2) continue;
        // The artifact's page draws one entry: its latest change.
        expect(await page.locator('.version-panel').count(), url).toBe(1);
        // A link is a navigation: wait for the new page to load before reading it (its URL changes first).
        await Promise.all([page.waitForURL(`**${url}versions/1/`, { waitUntil: 'load' }), tabs.first().click()]);
        expect(new URL(page.url()).pathname, url).toBe(`${url}versions/1/`);
        expect(await page.locator('.version-panel').count()).toBe(1);
        expect(await page.locator('nav.version-picker a[aria-current="page"]').innerText()).toBe('1');
        expect(await page.locator('.version-panel header').innerText()).toMatch(/^1\. /);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await Promise.all([page.waitForURL(`**${url}versions/2/`, { waitUntil: 'load' }), page.locator('a[rel="next"]').click()]);
        expect(new URL(page.url()).pathname).toBe(`${url}versions/2/`);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });
});
