/**
 * Incremental builds (src/lib/archive/incremental.ts): a rebuild after adding one session renders only that
 * session's pages and re-indexes only its search shard; the other sessions' pages are the very same files
 * (same inode: moved aside and back, never rewritten). Search in Chromium then finds a word only the new session has
 * and a word only an old one has, across the merged shards, with the product filter still narrowing. Touching one
 * session's file re-renders that session alone (and, for a subagent, the parent whose page shows it); a build into a
 * deleted out dir renders everything, and a build with nothing changed says "nothing to do" and leaves the out dir.
 */
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTree } from '../helpers/temp.ts';
import type { BrowserContext } from 'playwright-core';
import { buildSite, projectRoot } from '../helpers/build-site.ts';
import { hasChromium, launchBrowser } from '../helpers/browser.ts';
import { fileForUrl, htmlFiles, linksIn, readPage } from '../helpers/site-files.ts';
import { serveStatic, type StaticServer } from '../../scripts/lib/static-server.ts';
import { RESULT_LINK, expectProductFilterNarrows, resultCount } from '../helpers/search-ui.ts';
import { sessionReuseKeys, whySomethingToDo } from '../../src/lib/archive/incremental.ts';
import { resolveArchiveInputs } from '../../src/lib/archive/inputs.ts';

const OLD = 'e08e5d5e-3fdf-42fd-b1cb-0e2f06167eb0'; // jetski: the only session mentioning "logslice"
const TOUCHED = 'e69b7648-138c-43cd-a6c0-5bbfeaba62aa';
const COPIED = '7fc10e1b-7107-468d-9b45-ad18459f6d44';
const NEW = 'a0a0a0a0-1111-4222-8333-944444444444';
const NEW_WORD = 'zephyrquokka';
const PARENT = '5b1e0c2a-7d4f-4c1e-9a63-2f8d4e6b1c07'; // the demo family: a parent and its two subagents
const WRITER = 'a3c9e1f4-2b7d-4e58-8c16-9d0f3b2a7e51';
const CHECKER = 'c7d2f8b3-6e1a-4f94-b2c5-0a8e7d3f1b96';

const work = mkdtempSync(path.join(os.tmpdir(), 'agy-incremental-'));
const home = path.join(work, 'home');
const outDir = path.join(work, 'dist');
const cacheDir = path.join(work, 'cache');
const build = () => buildSite({ env: { GEMINI_HOME: home }, outDir, cacheDir });
const inode = (url: string): number => statSync(fileForUrl(outDir, url) as string).ino;

/** Every `/…` link and asset of every page resolves to a file (reused pages point at this build's assets). */
function brokenLinks(): string[] {
  const broken: string[] = [];
  for (const rel of htmlFiles(outDir)) {
    for (const link of linksIn(readFileSync(path.join(outDir, rel), 'utf8'))) {
      if (link.startsWith('/') && !link.startsWith('//') && !fileForUrl(outDir, link)) broken.push(`${rel}: ${link}`);
    }
  }
  return broken;
}

/** The result URLs a Pagefind bundle holds (its fragments: gzip, a `pagefind_dcd` tag, then JSON). */
function bundleUrls(bundle: string): string[] {
  const urls: string[] = [];
  const dir = path.join(bundle, 'fragment');
  for (const name of readdirSync(dir)) {
    const json = JSON.parse(gunzipSync(readFileSync(path.join(dir, name))).toString('utf8').replace(/^pagefind_dcd/, ''));
    for (const fragment of (json.url ? [json] : Object.values(json)) as { url: string }[]) urls.push(fragment.url);
  }
  return urls;
}

describe('incremental builds', () => {
  let before: Record<string, number>;
  let warm: { code: number | null; output: string };

  beforeAll(async () => {
    cpSync(path.join(projectRoot, 'fixtures', 'demo'), home, { recursive: true, preserveTimestamps: true });
    const cold = await build();
    expect(cold.code, cold.output.slice(-2000)).toBe(0);
    expect(cold.output).toContain('reused pages of 0 unchanged sessions, rendering 8');
    before = { old: inode(`/sessions/${OLD}/steps/1/`), oldSession: inode(`/sessions/${OLD}/`) };

    const copy = path.join(home, 'antigravity', 'brain', NEW);
    cpSync(path.join(home, 'antigravity-cli', 'brain', COPIED), copy, { recursive: true, preserveTimestamps: true });
    appendFileSync(path.join(copy, 'walkthrough.md'), `\nChecked the ${NEW_WORD} marker.\n`);
    warm = await build();
    expect(warm.code, warm.output.slice(-2000)).toBe(0);
  }, 900_000);
  afterAll(() => removeTree(work));

  it('reuses the unchanged sessions and renders the new one', () => {
    expect(warm.output).toContain('reused pages of 8 unchanged sessions, rendering 1');
    expect(warm.output).toMatch(/search index: \d+ shards of 9 sessions \(1 indexed/);
    expect(inode(`/sessions/${OLD}/steps/1/`)).toBe(before.old);
    expect(inode(`/sessions/${OLD}/`)).toBe(before.oldSession);
    expect(readPage(outDir, `/sessions/${NEW}/`)).toBeDefined();
    expect(readPage(outDir, `/sessions/${NEW}/steps/1/`)).toBeDefined();
    expect(readPage(outDir, '/')).toContain(`href="/sessions/${NEW}/"`);
    expect(brokenLinks()).toEqual([]);
  });

  it('lists every shard it wrote, and each session is indexed in exactly one, by its site path', () => {
    const folders = JSON.parse(readFileSync(path.join(outDir, 'pagefind', 'shards.json'), 'utf8')) as string[];
    expect(folders.length).toBeGreaterThan(1);
    const bundlesOnPage = JSON.parse((readPage(outDir, '/search/')?.match(/data-bundles="([^"]*)"/)?.[1] ?? '[]').replaceAll('&quot;', '"')) as { bundle: string; baseUrl: string }[];
    expect(bundlesOnPage).toEqual(folders.map((f) => ({ bundle: `/pagefind/${f}`, baseUrl: '/' })));
    const seen = new Map<string, string>();
    for (const folder of folders) {
      const bundle = path.join(outDir, 'pagefind', folder);
      expect(existsSync(path.join(bundle, 'pagefind-entry.json')), folder).toBe(true);
      for (const url of bundleUrls(bundle)) {
        // Site paths without ARCHIVE_BASE (the search page adds it with Pagefind's baseUrl), each with a page.
        expect(url).toMatch(/^\/sessions\/[^/]+\//);
        expect(fileForUrl(outDir, url), url).toBeDefined();
        const session = url.split('/')[2] as string;
        expect(seen.get(session) ?? folder, `${session} in two shards`).toBe(folder);
        seen.set(session, folder);
      }
    }
    expect([...seen.keys()].sort()).toEqual(readdirSync(path.join(outDir, 'sessions')).sort());
    // The bundle sessions.json names for each session (what a joined site merges) is the one holding its pages.
    const index = JSON.parse(readFileSync(path.join(outDir, 'sessions.json'), 'utf8')) as { id: string; searchBundle: string }[];
    expect(Object.fromEntries(index.map((s) => [s.id, s.searchBundle]))).toEqual(Object.fromEntries([...seen].map(([id, folder]) => [id, `pagefind/${folder}`])));
  });

  describe.skipIf(!hasChromium())('search over the merged shards', () => {
    let server: StaticServer;
    let context: BrowserContext;
    let close: () => Promise<void>;
    beforeAll(async () => {
      server = await serveStatic(outDir);
      ({ context, close } = await launchBrowser());
    });
    afterAll(async () => {
      await close?.();
      await server?.close();
    });

    it('finds a word of the new session and a word of an old one', async () => {
      const page = await context.newPage();
      await page.goto(`${server.origin}/search/?q=${NEW_WORD}`);
      expect(await resultCount(page, NEW_WORD)).toBeGreaterThan(0);
      expect(await page.locator(RESULT_LINK).first().getAttribute('href')).toContain(`/sessions/${NEW}/`);
      await page.goto(`${server.origin}/search/?q=logslice`);
      expect(await resultCount(page, 'logslice')).toBeGreaterThan(0);
      await page.locator(`${RESULT_LINK}[href*="/sessions/${OLD}/"]`).first().waitFor({ timeout: 15_000 });
      await page.close();
    });

    it('narrows the merged results with the product filter', async () => {
      await expectProductFilterNarrows(context, server.origin, 'README');
    });
  });

  // One build for both (each build is an Astro start of seconds): a session whose file changed, and a subagent whose
  // file changed, whose parent's page shows it.
  it("re-renders only the sessions whose file changed, and a subagent's parent with it (the parent's page shows the child)", async () => {
    const touched = path.join(home, 'antigravity', 'brain', TOUCHED, '.system_generated', 'logs', 'transcript.jsonl');
    const child = path.join(home, 'antigravity', 'brain', WRITER, '.system_generated', 'logs', 'transcript_full.jsonl');
    const touchedBefore = inode(`/sessions/${TOUCHED}/`);
    const writerBefore = inode(`/sessions/${WRITER}/`);
    const parentBefore = inode(`/sessions/${PARENT}/`);
    const siblingBefore = inode(`/sessions/${CHECKER}/`);
    const future = new Date(Date.now() + 60_000);
    utimesSync(touched, future, future);
    utimesSync(child, future, future);
    const result = await build();
    expect(result.code, result.output.slice(-2000)).toBe(0);
    expect(result.output).toContain('reused pages of 6 unchanged sessions, rendering 3');
    expect(inode(`/sessions/${TOUCHED}/`)).not.toBe(touchedBefore);
    expect(inode(`/sessions/${WRITER}/`)).not.toBe(writerBefore);
    expect(inode(`/sessions/${PARENT}/`)).not.toBe(parentBefore);
    expect(inode(`/sessions/${CHECKER}/`)).toBe(siblingBefore);
    expect(inode(`/sessions/${OLD}/steps/1/`)).toBe(before.old);
  }, 120_000);

  it('does nothing when nothing changed: no Astro, no Pagefind, the out dir as it was', async () => {
    const mark = readFileSync(path.join(outDir, '.agy-archive-build'), 'utf8');
    const frontPage = inode('/');
    const result = await build();
    expect(result.code, result.output.slice(-2000)).toBe(0);
    expect(result.output).toContain('incremental: nothing to do: 9 sessions');
    expect(result.output).not.toMatch(/Syncing content|search index:|publish:/);
    expect(readFileSync(path.join(outDir, '.agy-archive-build'), 'utf8')).toBe(mark);
    expect(inode('/')).toBe(frontPage);
    // No staging or reused folder (the last build's old site may still be being removed in the background).
    expect(readdirSync(work).filter((name) => name.startsWith('dist.') && !name.startsWith('dist.old-'))).toEqual(['dist.lock']);

    // Anything the keys cover, changed, is something to do.
    const keyed = await sessionReuseKeys(await resolveArchiveInputs(projectRoot, { GEMINI_HOME: home, BRAIN_ROOTS: '', ARCHIVE_STORE: 'none' }), 'site', {
      base: '',
      redactionEnabled: true,
      isDemo: false,
      roots: [],
    });
    const manifest = JSON.parse(readFileSync(path.join(cacheDir, 'incremental', 'manifest.json'), 'utf8')) as {
      shared: string;
      keys: Record<string, string>;
      discovery: string;
    };
    const live = realpathSync(outDir);
    expect(Object.keys(keyed.keys).sort()).toEqual(Object.keys(manifest.keys).sort());
    expect(whySomethingToDo(cacheDir, live, manifest)).toBeUndefined();
    const { [OLD]: _gone, ...fewer } = manifest.keys;
    expect(whySomethingToDo(cacheDir, live, { ...manifest, keys: fewer })).toBe('sessions were added or are gone');
    expect(whySomethingToDo(cacheDir, live, { ...manifest, keys: { ...manifest.keys, [OLD]: 'changed' } })).toBe('1 sessions changed or are new');
    expect(whySomethingToDo(cacheDir, live, { ...manifest, shared: keyed.shared })).toBe("the site's code or build settings changed");
    expect(whySomethingToDo(cacheDir, live, { ...manifest, discovery: 'a new shadowed copy' })).toMatch(/shadowed copies/);
    expect(whySomethingToDo(cacheDir, path.join(work, 'elsewhere'), manifest)).toMatch(/the last build went to/);
  }, 120_000);

  it('renders everything into a deleted out dir', async () => {
    rmSync(outDir, { recursive: true, force: true });
    const result = await build();
    expect(result.code, result.output.slice(-2000)).toBe(0);
    expect(result.output).toContain('reused pages of 0 unchanged sessions, rendering 9');
    expect(readPage(outDir, `/sessions/${OLD}/steps/1/`)).toBeDefined();
    expect(readPage(outDir, `/sessions/${NEW}/`)).toBeDefined();
    expect(brokenLinks()).toEqual([]);
  }, 120_000);
});
