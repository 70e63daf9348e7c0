/**
 * Past one machine: two parts built from two homes under their own base paths (`/a/`: the demo home, `/b/`: two
 * reader cases, one with a word of its own, precompressed), joined by `ARCHIVE_JOIN` into a top-level site, all three served from one folder
 * as a host would (the parts linked in at `a/` and `b/`). The joined home lists every session of both, its links
 * resolve on disk, its stats and sessions.json count both, and a search in Chromium returns a result from each
 * part. A join of one part under the part's own base writes the part's own pages, byte for byte (but the footer).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTree } from '../helpers/temp.ts';
import { joinParts, readPart, type JoinPart } from '../../src/lib/join/join.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import { buildSite, projectRoot } from '../helpers/build-site.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { RESULT_LINK, STEP_LINK, resultCount } from '../helpers/search-ui.ts';
import { fileForUrl, htmlFiles, linksIn, readPage, textOf } from '../helpers/site-files.ts';

const fixtures = path.join(projectRoot, 'fixtures');
const work = mkdtempSync(path.join(os.tmpdir(), 'agy-join-'));
/** The host's web root: the joined site, with the parts linked in at `a/` and `b/`. */
const host = path.join(work, 'host');
const partA = path.join(work, 'parts', 'a');
const partB = path.join(work, 'parts', 'b');
const one = path.join(work, 'one');

interface Entry {
  id: string;
  url: string;
  steps: number;
  base: string;
}
const entries = (dir: string): Entry[] => JSON.parse(readFileSync(path.join(dir, 'sessions.json'), 'utf8')) as Entry[];
const statNumbers = (html: string): Record<string, number> =>
  Object.fromEntries([...html.matchAll(/<div class="n">(\d+)<\/div><div class="l">([^<]+)<\/div>/g)].map((m) => [m[2], Number(m[1])]));

/** A word only part B holds: the rewind case, copied, with it in the answer that replaced the first (step 3-1). */
const WORD_OF_B = 'quetzalcoatl';
const rewindHome = path.join(work, 'rewind-home');

beforeAll(async () => {
  cpSync(path.join(fixtures, 'cases', 'rewind'), rewindHome, { recursive: true });
  const logs = path.join(rewindHome, 'antigravity', 'brain', '00000000-0000-4000-8000-000000000001', '.system_generated', 'logs');
  for (const name of ['transcript.jsonl', 'transcript_full.jsonl']) {
    const file = path.join(logs, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace('new answer', `new answer ${WORD_OF_B}`));
  }
  const [a, b] = await Promise.all([
    buildSite({ outDir: partA, env: { GEMINI_HOME: path.join(fixtures, 'demo'), ARCHIVE_BASE: '/a/' } }),
    buildSite({
      outDir: partB,
      env: {
        BRAIN_ROOTS: [path.join(rewindHome, 'antigravity', 'brain'), path.join(fixtures, 'cases', 'messages-tasks', 'antigravity', 'brain')].join(':'),
        ARCHIVE_BASE: '/b/',
        ARCHIVE_PRECOMPRESS: 'gzip,br',
      },
    }),
  ]);
  expect(a.code, a.output.slice(-2000)).toBe(0);
  expect(b.code, b.output.slice(-2000)).toBe(0);
  const [top, single] = await Promise.all([
    buildSite({ outDir: host, env: { ARCHIVE_JOIN: `${partA}:${partB}` } }),
    buildSite({ outDir: one, env: { ARCHIVE_JOIN: partA, ARCHIVE_BASE: '/a/' } }),
  ]);
  expect(top.code, top.output.slice(-2000)).toBe(0);
  expect(top.output).toMatch(/join: \d+ sessions from 2 parts \(\/a\/, \/b\/\)/);
  expect(single.code, single.output.slice(-2000)).toBe(0);
  symlinkSync(partA, path.join(host, 'a'));
  symlinkSync(partB, path.join(host, 'b'));
}, 900_000);
afterAll(() => removeTree(work));

describe('a joined site over two parts', () => {
  it('lists every session of both parts on its home, each link resolving to the session page inside its part', () => {
    const home = readPage(host, '/') ?? '';
    const all = [...entries(partA), ...entries(partB)];
    expect(entries(partA).length).toBeGreaterThan(1);
    expect(entries(partB).length).toBeGreaterThan(1);
    const links = linksIn(home).filter((l) => l.includes('/sessions/'));
    for (const s of all) {
      const href = `${s.base}sessions/${s.id}/`;
      expect(links, s.id).toContain(href);
      expect(fileForUrl(host, href), href).toBeDefined();
      expect(textOf(readPage(host, href) ?? '')).toContain(s.id);
    }
    expect(new Set(links).size).toBe(all.length);
    expect(textOf(home)).toContain(`${all.length} sessions, ${all.reduce((n, s) => n + s.steps, 0)} steps`);
  });

  it('counts both parts on its stats page and in its sessions.json', () => {
    const all = [...entries(partA), ...entries(partB)];
    const stats = statNumbers(readPage(host, '/stats/') ?? '');
    expect(stats.sessions).toBe(all.length);
    expect(stats.steps).toBe(all.reduce((n, s) => n + s.steps, 0));
    const joined = entries(host);
    expect(joined.map((s) => s.id).sort()).toEqual(all.map((s) => s.id).sort());
    for (const s of joined) expect(s.url).toBe(`${s.base}sessions/${s.id}/`);
  });

  it('has no link on any of its pages that does not resolve on the host', () => {
    const broken: string[] = [];
    for (const rel of htmlFiles(host)) {
      if (rel.startsWith('a/') || rel.startsWith('b/')) continue;
      for (const link of linksIn(readFileSync(path.join(host, rel), 'utf8'))) {
        if (!link.startsWith('/') || link.startsWith('//')) continue;
        if (!fileForUrl(host, link)) broken.push(`${rel}: ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names its parts on the report and links to their own reports', () => {
    const report = readPage(host, '/report/') ?? '';
    expect(textOf(report)).toMatch(/2 parts joined/);
    expect(linksIn(report)).toEqual(expect.arrayContaining(['/a/report/', '/b/report/']));
    expect(textOf(readPage(host, '/') ?? '')).toContain('Joined from 2 parts.');
  });

  it("lists every part's search bundles, with the base their result URLs are relative to", () => {
    const search = readPage(host, '/search/') ?? '';
    const raw = search.match(/data-bundles="([^"]*)"/)?.[1] ?? '[]';
    const bundles = JSON.parse(raw.replaceAll('&quot;', '"')) as { bundle: string; baseUrl: string }[];
    expect(new Set(bundles.map((b) => b.baseUrl))).toEqual(new Set(['/a/', '/b/']));
    for (const b of bundles) expect(existsSync(path.join(host, b.bundle, 'pagefind-entry.json')), b.bundle).toBe(true);
  });

  it('writes, as a join of one part under its base, the same pages as the part (but the footer)', () => {
    const withoutFooter = (html: string) => html.replace(/<footer class="site-footer">[\s\S]*?<\/footer>/, '');
    const differ: string[] = [];
    const pages = htmlFiles(one).filter((rel) => rel !== 'report/index.html');
    expect(pages).toEqual(expect.arrayContaining(['index.html', 'stats/index.html', 'audit/commands/index.html', 'audit/files/index.html', 'audit/errors/index.html', 'search/index.html']));
    for (const rel of pages) {
      const own = path.join(partA, rel);
      if (!existsSync(own) || withoutFooter(readFileSync(own, 'utf8')) !== withoutFooter(readFileSync(path.join(one, rel), 'utf8'))) differ.push(rel);
    }
    expect(differ).toEqual([]);
  });

  it('precompresses the part built with ARCHIVE_PRECOMPRESS, and only that one', () => {
    const home = path.join(partB, 'index.html');
    expect(gunzipSync(readFileSync(`${home}.gz`)).equals(readFileSync(home))).toBe(true);
    expect(existsSync(`${home}.br`)).toBe(true);
    expect(existsSync(path.join(partA, 'index.html.gz'))).toBe(false);
  });
});

describe('joining parts (pure)', () => {
  /** A part of sessions `s<n>`, each created on day n of 2026 and indexed in shard n − 1 (a real entry as the template). */
  const part = (dir: string, base: string, ids: string[]): JoinPart => ({
    dir,
    base,
    sessions: ids.map((id) => {
      const n = Number(id.slice(1));
      return { ...entries(partB)[0], id, created: `2026-01-0${n}T00:00:00.000Z`, base, searchBundle: `pagefind/shard-${n - 1}/` } as never;
    }),
  });

  it('lists a session in two parts once, from the first part, and says so', () => {
    const joined = joinParts([part('/x', '/x/', ['s1', 's2']), part('/y', '/y/', ['s2', 's3'])]);
    expect(joined.sessions.map((s) => `${s.id}@${s.base}`)).toEqual(['s3@/y/', 's2@/x/', 's1@/x/']);
    expect(joined.problems).toMatchObject([{ kind: 'join-duplicate', sessionId: 's2', file: '/y' }]);
    expect(joined.bundles).toEqual([
      { bundle: '/x/pagefind/shard-0/', baseUrl: '/x/' },
      { bundle: '/x/pagefind/shard-1/', baseUrl: '/x/' },
      { bundle: '/y/pagefind/shard-2/', baseUrl: '/y/' },
    ]);
  });

  it('flags two parts under one base path', () => {
    expect(joinParts([part('/x', '/x/', ['s1']), part('/y', '/x/', ['s2'])]).problems).toMatchObject([{ kind: 'join-base', file: '/y' }]);
  });

  it('stops on a folder that is not a built part, and leaves out an entry that does not parse', () => {
    expect(() => readPart(path.join(work, 'nowhere'))).toThrow(/not a built part.*Hint:/s);
    const bad = path.join(work, 'bad-part');
    mkdirSync(bad, { recursive: true });
    const good = entries(partB);
    writeFileSync(path.join(bad, 'sessions.json'), JSON.stringify([...good, { id: 'x', title: 3 }]));
    const read = readPart(bad);
    expect(read.part.sessions.map((s) => s.id)).toEqual(good.map((s) => s.id));
    expect(read.part.base).toBe('/b/');
    expect(read.problems).toMatchObject([{ kind: 'join-entry', message: expect.stringMatching(/entry 3 left out/) }]);
  });

  it('stops the build with a hint when ARCHIVE_JOIN names a folder that is not a built part', async () => {
    const result = await buildSite({ outDir: path.join(work, 'never'), env: { ARCHIVE_JOIN: path.join(work, 'nowhere') } });
    expect(result.code).toBe(2);
    expect(result.output).toMatch(/is not a built part.*Hint: give the out dir/s);
    expect(existsSync(path.join(work, 'never'))).toBe(false);
  });
});

describe.skipIf(!hasChromium())('search over the joined site in the browser', () => {
  let server: StaticServer;
  let context: BrowserContext;
  let close: () => Promise<void>;

  beforeAll(async () => {
    server = await serveStatic(host);
    ({ context, close } = await launchBrowser());
  });
  afterAll(async () => {
    await close?.();
    await server?.close();
  });

  /**
   * The result links for `query` on the joined search page, once they hold a link of every part in `parts` (the
   * page lists results as their fragments load, ten at a time).
   */
  async function resultLinks(query: string, parts: string[]): Promise<string[]> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${server.origin}/search/?q=${encodeURIComponent(query)}`);
    expect(await resultCount(page, query)).toBeGreaterThan(0);
    // Near matches can fill the first page of results: every page of them is shown ("More results").
    const more = page.locator('#search-more');
    const links = async () => {
      // The button can move or hide while a page of results lands; the poll asks again, so a missed click is fine.
      if (await more.isVisible()) await more.click({ timeout: 2_000 }).catch(() => undefined);
      // A result is a turn (its link into the conversation) with its step hits under it (links to step pages).
      return page.locator(`${RESULT_LINK}, ${STEP_LINK}`).evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    };
    await expect
      .poll(links, { timeout: 15_000 })
      .toSatisfy((hrefs: string[]) => parts.every((base) => hrefs.some((h) => h.startsWith(`${base}sessions/`))));
    const hrefs = await links();
    expect(errors).toEqual([]);
    await page.close();
    return hrefs;
  }

  it('finds a word of each part in that part, and a word of both in both, each result a page on the host', async () => {
    // Each bundle ranks its near matches apart (src/scripts/search-page.ts), so a word of one part can bring near
    // matches from the other too: what counts is that the page holding the word is among the results.
    const onlyA = await resultLinks('logslice', ['/a/']);
    const onlyB = await resultLinks(WORD_OF_B, ['/b/']);
    expect(onlyB).toContain('/b/sessions/00000000-0000-4000-8000-000000000001/steps/3-1/');
    const both = await resultLinks('plan', ['/a/', '/b/']);
    for (const href of [...onlyA, ...onlyB, ...both]) expect(fileForUrl(host, href), href).toBeDefined();
  });
});
