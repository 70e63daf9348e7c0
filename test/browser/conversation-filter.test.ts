/**
 * The conversation filters across pages in a real browser over the demo build (issue 22): a filter chosen on one
 * conversation page is in the URL (`?show=`) and in every link to a conversation page of the same session (pager,
 * list of turns), so the page such a link opens has the same filter checked; "Everything" takes it out again.
 * Without script the filters still work on their page and the URL changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBuild, readDemoSessions } from '../helpers/homes.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import type { SharedBuild } from '../helpers/shared-build.ts';

/** Links to conversation pages of the session whose page this is (pager, list of turns, breadcrumb). */
const CONVERSATION_LINKS = '.pager a[href], .turn-list a[href]';

describe.skipIf(!hasChromium())('conversation filters across pages in the browser', () => {
  let build: SharedBuild;
  let server: StaticServer;
  /** A session page with links to its conversation pages (a pager or a list of turns). */
  let withLinks: string;

  beforeAll(async () => {
    build = await demoBuild();
    expect(build.code, build.output.slice(-2000)).toBe(0);
    server = await serveStatic(build.outDir);
    const ids = (await readDemoSessions()).map((s) => s.id);
    const { context, close } = await launchBrowser();
    try {
      const page = await context.newPage();
      for (const id of ids) {
        await page.goto(`${server.origin}/sessions/${id}/`);
        if ((await page.locator(CONVERSATION_LINKS).count()) > 0) {
          withLinks = `/sessions/${id}/`;
          break;
        }
      }
    } finally {
      await close();
    }
    expect(withLinks, 'a demo session page with a pager or a list of turns').toBeDefined();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps Edits chosen on the conversation page a pager or turn link opens', async () => {
    const { context, close } = await launchBrowser();
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}${withLinks}`);
      expect(await page.isChecked('#show-all')).toBe(true);
      await page.check('#show-edits');
      expect(new URL(page.url()).searchParams.get('show')).toBe('edits');
      const hrefs = await page.locator(CONVERSATION_LINKS).evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      expect(hrefs.length).toBeGreaterThan(0);
      expect(hrefs.filter((h) => new URL(h).searchParams.get('show') !== 'edits')).toEqual([]);

      // A fresh load of each page a link opens (as following it from another page does) has Edits checked.
      const other = await context.newPage();
      for (const href of new Set(hrefs.map((h) => h.replace(/#.*$/, '')))) {
        await other.goto(href);
        expect(await other.isChecked('#show-edits'), href).toBe(true);
        expect(await other.isChecked('#show-all'), href).toBe(false);
      }

      // Following a link on the page itself keeps the choice too.
      await page.locator(CONVERSATION_LINKS).first().click();
      expect(new URL(page.url()).searchParams.get('show')).toBe('edits');
      expect(await page.isChecked('#show-edits')).toBe(true);

      // "Everything" takes the filter out of the URL and out of the links.
      await page.check('#show-all');
      expect(new URL(page.url()).searchParams.has('show')).toBe(false);
      const plain = await page.locator(CONVERSATION_LINKS).evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      expect(plain.filter((h) => new URL(h).searchParams.has('show'))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('drops a value no filter has, and without script leaves the filters as they are', async () => {
    const { context, close } = await launchBrowser();
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}${withLinks}?show=nonsense`);
      expect(await page.isChecked('#show-all')).toBe(true);
      expect(new URL(page.url()).searchParams.has('show')).toBe(false);
    } finally {
      await close();
    }
    const bare = await launchBrowser();
    try {
      await bare.context.route('**/*.js', (route) => route.abort());
      const page = await bare.context.newPage();
      await page.goto(`${server.origin}${withLinks}?show=edits`);
      expect(await page.isChecked('#show-all')).toBe(true);
      await page.check('#show-edits');
      expect(await page.isChecked('#show-edits')).toBe(true);
      expect(new URL(page.url()).searchParams.get('show')).toBe('edits');
    } finally {
      await bare.close();
    }
  });
});
