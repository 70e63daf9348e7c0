/**
 * Every word findable, in every language (issues 21 and 23), over the real sessions in ../shared/real-brains
 * (skipped when absent): a Chinese word in the middle of a sentence (夏普比率, never alone in its session's title) and
 * a Korean word are found; the search documents holding Chinese are indexed as Chinese (Pagefind splits its words
 * only there) and the search page merges every language's index; pages and blocks say the language of their text.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { projectRoot } from '../helpers/build-site.ts';
import { sharedBuild, type SharedBuild } from '../helpers/shared-build.ts';
import { readPage } from '../helpers/site-files.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import { RESULT_LINK, STEP_LINK, resultCount } from '../helpers/search-ui.ts';

// The shared folder beside the project, or beside the worktrees' folder (a git worktree under wt/).
const realHome = [path.resolve(projectRoot, '../shared/real-brains/gemini'), path.resolve(projectRoot, '../../shared/real-brains/gemini')].find((p) => existsSync(p)) ?? path.resolve(projectRoot, '../shared/real-brains/gemini');
/** The Chinese session, and the Korean one (SURVEY.md). */
const CHINESE = 'd493099f-783d-4b86-9462-011f05b21b68';
const KOREAN = '0043a8fc-9fe4-409c-bc95-45ef7a0dc514';

describe.skipIf(!existsSync(realHome) || !hasChromium())('search in every language (real sessions)', () => {
  let build: SharedBuild;
  let server: StaticServer;
  let context: BrowserContext;
  let close: () => Promise<void>;

  beforeAll(async () => {
    build = await sharedBuild('real', { GEMINI_HOME: realHome });
    expect(build.code, build.output.slice(-2000)).toBe(0);
    server = await serveStatic(build.outDir);
    ({ context, close } = await launchBrowser());
  });
  afterAll(async () => {
    await close?.();
    await server?.close();
  });

  it('indexes a document with Chinese in it as Chinese, and writes a Chinese index beside the English one', () => {
    const docs = readdirSync(path.join(build.outDir, 'sessions', CHINESE, 'search'));
    const langs = docs.map((f) => /<html lang="([^"]+)"/.exec(readFileSync(path.join(build.outDir, 'sessions', CHINESE, 'search', f), 'utf8'))?.[1]);
    expect(langs.filter((l) => l === 'zh').length).toBeGreaterThan(docs.length / 2);
    const languages = new Set<string>();
    for (const shard of JSON.parse(readFileSync(path.join(build.outDir, 'pagefind', 'shards.json'), 'utf8')) as string[]) {
      const entry = JSON.parse(readFileSync(path.join(build.outDir, 'pagefind', shard, 'pagefind-entry.json'), 'utf8')) as { languages: Record<string, unknown> };
      for (const l of Object.keys(entry.languages)) languages.add(l);
    }
    expect([...languages]).toEqual(expect.arrayContaining(['en', 'zh']));
  });

  it('finds a Chinese word from the middle of a sentence, with the steps that hold it', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/search/?q=${encodeURIComponent('夏普比率')}`);
    expect(await resultCount(page, '夏普比率')).toBeGreaterThan(0);
    await page.locator(STEP_LINK).first().waitFor({ timeout: 15_000 });
    const titles = await page.locator(RESULT_LINK).allTextContents();
    expect(titles.some((t) => t.startsWith('重写EP17-EP23'))).toBe(true);
    // The session's title is metadata: the word is found in the steps, not in every step through the title.
    const href = await page.locator(STEP_LINK).first().getAttribute('href');
    expect(href).toMatch(new RegExp(`^/sessions/${CHINESE}/steps/[^/]+/$`));
    await page.close();
  });

  it('finds a Korean word, in the English search page that merged every language', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/search/?q=${encodeURIComponent('봉차트')}`);
    expect(await resultCount(page, '봉차트')).toBeGreaterThan(0);
    for (const title of await page.locator(RESULT_LINK).allTextContents()) expect(title).toMatch(/^주식 MVP/);
    await page.close();
  });

  it('says the language of pages and blocks: a Korean request is lang="ko", the Korean session page too', () => {
    const session = readPage(build.outDir, `/sessions/${KOREAN}/`) ?? '';
    expect(session).toMatch(/<html lang="ko"/);
    expect(session).toMatch(/class="request-text" lang="ko"|lang="ko" class="request-text"/);
    const chinese = readPage(build.outDir, `/sessions/${CHINESE}/`) ?? '';
    expect(chinese).toMatch(/<html lang="zh"/);
    // An English page stays English.
    expect(readPage(build.outDir, '/about/') ?? '').toMatch(/<html lang="en"/);
  });
});
