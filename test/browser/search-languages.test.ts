/**
 * Every word findable, in every language, and none invented (issues 21, 23 and 30), over the real sessions in
 * ../shared/real-brains (skipped when absent), through the search page in Chromium: a Chinese word in the middle of
 * a sentence (夏普比率, never alone in its session's title) and a Korean word are found; Chinese compounds and pieces
 * of sentences are found in every document that holds them and in no other (recall and precision measured against
 * the documents' own text); a word no document holds finds nothing; pages and blocks say the language of their text.
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
import { shownText } from '../../src/lib/search/cjk.ts';

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

  it('says the language of a document with Chinese in it, and indexes every document in one language it writes itself', () => {
    const docs = readdirSync(path.join(build.outDir, 'sessions', CHINESE, 'search'));
    const langs = docs.map((f) => /<html lang="([^"]+)"/.exec(readFileSync(path.join(build.outDir, 'sessions', CHINESE, 'search', f), 'utf8'))?.[1]);
    expect(langs.filter((l) => l === 'zh').length).toBeGreaterThan(0);
    const languages = new Set<string>();
    for (const shard of JSON.parse(readFileSync(path.join(build.outDir, 'pagefind', 'shards.json'), 'utf8')) as string[]) {
      const entry = JSON.parse(readFileSync(path.join(build.outDir, 'pagefind', shard, 'pagefind-entry.json'), 'utf8')) as { languages: Record<string, unknown> };
      for (const l of Object.keys(entry.languages)) languages.add(l);
    }
    // Pagefind's own segmenting of zh/ja (a dictionary at index time, Intl.Segmenter at query time) is not used.
    expect([...languages]).toEqual(['en']);
  });

  /** The search documents' text as written (their indexed words read back), by the URL a result links to. */
  function documentTexts(): Map<string, string> {
    const texts = new Map<string, string>();
    const sessions = path.join(build.outDir, 'sessions');
    for (const id of readdirSync(sessions)) {
      const folder = path.join(sessions, id, 'search');
      if (!existsSync(folder)) continue;
      for (const name of readdirSync(folder)) {
        const html = readFileSync(path.join(folder, name), 'utf8');
        const unescape = (t: string) => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
        const href = unescape(/data-pagefind-meta="turn">([^<]*)</.exec(html)?.[1] ?? '');
        const body = html.slice(html.indexOf('<main')).replace(/<span hidden[^>]*>[^<]*<\/span>/g, '');
        const text = [...body.matchAll(/<(?:pre|h2|p)[^>]*>([^<]*)</g)].map((m) => shownText(unescape(m[1] ?? ''))).join(' ');
        const title = shownText(unescape(/data-pagefind-meta="title">([^<]*)</.exec(html)?.[1] ?? ''));
        texts.set(href, `${texts.get(href) ?? ''} ${text} ${title}`);
      }
    }
    return texts;
  }

  /** Every result the search page lists for `query` (every page of results), by the URL it links to. */
  async function allResults(query: string): Promise<Set<string>> {
    const page = await context.newPage();
    await page.goto(`${server.origin}/search/?q=${encodeURIComponent(query)}`);
    const n = await resultCount(page, query);
    const more = page.locator('#search-more');
    if (n > 0) await page.locator(RESULT_LINK).first().waitFor({ timeout: 15_000 });
    while (await more.isVisible()) {
      const before = await page.locator(RESULT_LINK).count();
      await more.click();
      await expect.poll(() => page.locator(RESULT_LINK).count(), { timeout: 15_000 }).toBeGreaterThan(before);
    }
    const hrefs = new Set((await page.locator(RESULT_LINK).evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))));
    await page.close();
    return hrefs;
  }

  it('finds a Chinese compound or piece of a sentence in every document that holds it, and in no other', async () => {
    const texts = documentTexts();
    // Compounds and pieces cut across words (a segmenter splits 收集历史 and 下统一 elsewhere), common and rare.
    const words = ['完善', '封面图', '未来', '标题', '模块', '期权', '夏普比率', '下统一', '收集历史', '短期国', '文的介', '北方华创'];
    let holding = 0;
    let found = 0;
    let right = 0;
    for (const word of words) {
      const truth = new Set([...texts].filter(([, text]) => text.includes(word)).map(([href]) => href));
      const results = await allResults(word);
      const correct = [...results].filter((href) => truth.has(href));
      expect(correct.length, `${word}: found ${results.size}, ${truth.size} hold it`).toBe(results.size);
      holding += truth.size;
      found += results.size;
      right += correct.length;
    }
    expect(holding).toBeGreaterThan(40);
    expect(right / holding).toBe(1);
    expect(right / found).toBe(1);
  }, 240_000);

  it('lists the documents holding a file name or command typed without quotes before any other (issue 30)', async () => {
    const texts = documentTexts();
    for (const query of ['token_stub.py', 'place_buy_gold.py', 'test_telegram.py', 'task-7209.log', 'npm run build']) {
      const page = await context.newPage();
      await page.goto(`${server.origin}/search/?q=${encodeURIComponent(query)}`);
      expect(await resultCount(page, query)).toBeGreaterThan(0);
      await page.locator(RESULT_LINK).first().waitFor({ timeout: 15_000 });
      const hrefs = await page.locator(RESULT_LINK).evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
      await page.close();
      const holds = hrefs.map((href) => (texts.get(href) ?? '').includes(query));
      const holders = [...texts.values()].filter((t) => t.includes(query)).length;
      // Every holder listed on the first page comes before every other result, and the first page lists them all.
      expect(holds.indexOf(false) === -1 || holds.lastIndexOf(true) < holds.indexOf(false), `${query}: ${holds.join(',')}`).toBe(true);
      expect(holds.filter(Boolean).length, query).toBe(Math.min(holders, hrefs.length));
    }
  });

  it('finds nothing for a word no document holds, where a piece of it is everywhere (本棚, 书誌)', async () => {
    const texts = documentTexts();
    for (const word of ['本棚', '书誌']) {
      expect([...texts.values()].some((t) => t.includes(word))).toBe(false);
      expect((await allResults(word)).size, word).toBe(0);
    }
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
