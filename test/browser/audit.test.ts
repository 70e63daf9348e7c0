/**
 * Keyboard, theme and export in a real browser over the demo build: j/k move between steps (timeline rows on a
 * timeline page, step pages on a step page), the session page's filters hide what they leave out and an old
 * `#step-N` link on the session page still reaches its step, `/` focuses the search box, the theme toggle switches and is
 * remembered across a reload (applied before paint by the head script), and a session's export opened from
 * file:// shows the session with no network request and no script. With AUDIT_SHOTS_DIR set, screenshots of the
 * audit pages in light and dark go there.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBuild } from '../helpers/homes.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import type { SharedBuild } from '../helpers/shared-build.ts';

const SESSION = '04c6284a-930e-444f-982e-37e931b8daf3';

describe.skipIf(!hasChromium())('audit pages in the browser', () => {
  let build: SharedBuild;
  let server: StaticServer;

  beforeAll(async () => {
    build = await demoBuild();
    expect(build.code, build.output.slice(-2000)).toBe(0);
    server = await serveStatic(build.outDir);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('moves between timeline rows and step pages with j/k, and focuses search with /', async () => {
    const { context, close } = await launchBrowser();
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${server.origin}/sessions/${SESSION}/timeline/`);
      const current = () => page.evaluate(() => document.querySelector('table.timeline tr.is-current')?.id ?? null);
      const focusedHref = () => page.evaluate(() => (document.activeElement as HTMLAnchorElement | null)?.getAttribute('href'));
      await page.keyboard.press('j');
      expect(await current()).toBe('step-0');
      await page.keyboard.press('j');
      expect(await current()).toBe('step-1');
      expect(await focusedHref()).toBe(`/sessions/${SESSION}/steps/1/`);
      await page.keyboard.press('k');
      expect(await current()).toBe('step-0');

      await page.keyboard.press('/');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('site-search');
      // Typing in the box is typing: j stays a letter.
      await page.keyboard.type('jk');
      expect(await page.inputValue('#site-search')).toBe('jk');
      expect(await current()).toBe('step-0');

      await page.goto(`${server.origin}/sessions/${SESSION}/steps/11/`);
      await Promise.all([page.waitForURL(/\/steps\/12\/$/), page.keyboard.press('j')]);
      await Promise.all([page.waitForURL(/\/steps\/11\/$/), page.keyboard.press('k')]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('filters the conversation without script and keeps old step anchors working', async () => {
    const { context, close } = await launchBrowser();
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/sessions/${SESSION}/`);
      const visible = (selector: string) => page.locator(selector).evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length);
      const calls = await visible('details.call');
      expect(calls).toBeGreaterThan(5);
      await page.locator('label:has(#show-failures)').click();
      const failed = await visible('details.call');
      expect(failed).toBeGreaterThan(0);
      expect(failed).toBe(await visible('details.call.is-failed'));
      expect(failed).toBeLessThan(calls);
      await page.locator('label:has(#show-conversation)').click();
      expect(await visible('details.call')).toBe(0);
      expect(await visible('.request-block')).toBeGreaterThan(0);
      await page.locator('label:has(#show-commands)').click();
      expect(await visible('details.call')).toBe(await visible('details.call.k-command'));
      // A step shown in the conversation keeps its anchor on the session page…
      await page.goto(`${server.origin}/sessions/${SESSION}/#step-11`);
      expect(await page.evaluate(() => document.getElementById('step-11') !== null)).toBe(true);
      // …and one it does not hold sends the reader to the step's own page.
      await Promise.all([page.waitForURL(/\/steps\/does-not-exist\/$/), page.goto(`${server.origin}/sessions/${SESSION}/#step-does-not-exist`)]);
    } finally {
      await close();
    }
  });

  it('switches the theme with the header toggle and remembers it across a reload', async () => {
    const { context, close } = await launchBrowser({ colorScheme: 'light' });
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/audit/commands/`);
      const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(await bg()).toBe('rgb(255, 255, 255)');
      const toggle = page.locator('[data-theme-toggle]');
      await expect.poll(() => toggle.isVisible()).toBe(true);
      await toggle.click();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      expect(await bg()).toBe('rgb(13, 17, 23)');
      await page.reload();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      expect(await bg()).toBe('rgb(13, 17, 23)');
      await page.locator('[data-theme-toggle]').click();
      await page.goto(`${server.origin}/stats/`);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
      expect(await bg()).toBe('rgb(255, 255, 255)');
    } finally {
      await close();
    }
  });

  it('opens a session export from file:// with no network request and no script', async () => {
    const { context, close } = await launchBrowser({ colorScheme: 'dark' });
    try {
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      const file = pathToFileURL(path.join(build.outDir, 'sessions', SESSION, 'export.html')).href;
      await page.goto(file);
      // Antigravity's own title (the checkpoint's objective), the conversation by turns, a table of turns linking inside the file.
      expect(await page.locator('h1').innerText()).toBe('Per-API-key rate limiting for the orders API');
      expect(await page.locator('section.turn').count()).toBeGreaterThanOrEqual(2);
      expect(await page.locator('details.call').count()).toBeGreaterThan(20);
      await page.locator('table a[href="#turn-2"]').click();
      expect(await page.evaluate(() => window.location.hash)).toBe('#turn-2');
      expect(await page.locator('#turn-2').count()).toBe(1);
      expect(await page.evaluate(() => document.scripts.length)).toBe(0);
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(13, 17, 23)');
      expect(requests).toEqual([file]);
    } finally {
      await close();
    }
  });

  it.runIf(Boolean(process.env.AUDIT_SHOTS_DIR))('takes screenshots in light and dark', async () => {
    const dir = process.env.AUDIT_SHOTS_DIR as string;
    mkdirSync(dir, { recursive: true });
    const pages = ['/audit/commands/', '/audit/files/', '/audit/errors/', '/stats/', `/sessions/${SESSION}/`, `/sessions/${SESSION}/artifacts/task.md/`, `/sessions/${SESSION}/export.html`];
    for (const scheme of ['light', 'dark'] as const) {
      const { context, close } = await launchBrowser({ colorScheme: scheme });
      try {
        const page = await context.newPage();
        for (const p of pages) {
          await page.goto(server.origin + p);
          const name = p.replace(/^\/|\/$/g, '').replace(/sessions\/[0-9a-f-]+/, 'session').replace(/[^a-z0-9]+/gi, '-');
          await page.screenshot({ path: path.join(dir, `${name}-${scheme}.png`), fullPage: p === '/stats/' });
        }
      } finally {
        await close();
      }
    }
  });
});
