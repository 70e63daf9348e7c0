/**
 * What the search step hands Pagefind (src/integrations/search-document.ts): the title and search body without the
 * ignored blocks. The index must be the one Pagefind makes from the whole pages — checked fragment by fragment over
 * every session page of the demo build.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as pagefind from 'pagefind';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchDocument, withoutIgnored } from '../../src/integrations/search-document.ts';
import { demoBuild } from '../helpers/homes.ts';
import type { SharedBuild } from '../helpers/shared-build.ts';
import { htmlFiles } from '../helpers/site-files.ts';

describe('withoutIgnored', () => {
  it('cuts each ignored element with everything inside it, nested elements and void tags included', () => {
    const html =
      '<p>keep <b>this</b></p><div class="code" data-pagefind-ignore><div><pre>x<br>y</pre></div><img src="a"></div>' +
      '<span>and this</span><dl data-pagefind-ignore="index"><dt>a</dt><dd>b</dd></dl><img data-pagefind-ignore src="b"><i>end</i>';
    expect(withoutIgnored(html)).toBe('<p>keep <b>this</b></p><span>and this</span><i>end</i>');
  });

  it('does not take an attribute that only starts with the name, or the words in text, for the marker', () => {
    const html = '<p data-pagefind-ignored="x">a</p><p>data-pagefind-ignore</p>';
    expect(withoutIgnored(html)).toBe(html);
  });

  it('gives up (undefined) when the tags do not balance, so the page is indexed whole', () => {
    expect(withoutIgnored('<div data-pagefind-ignore><p>never closed</div>')).toBeUndefined();
    expect(withoutIgnored('<div><span data-pagefind-ignore>x</span>')).toBeUndefined();
  });
});

describe('searchDocument', () => {
  it('keeps the title and the search body, drops the frame, and skips pages with no search body', () => {
    const page =
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Step 3 · agy-archive</title></head><body>' +
      '<header><nav>Sessions Search</nav></header><main id="main"><nav>crumbs</nav>' +
      '<article data-pagefind-body><h1>RUN_COMMAND</h1><div data-pagefind-ignore>code</div><p>npm test</p></article>' +
      '</main><footer>footer words</footer></body></html>';
    expect(searchDocument(page)).toBe(
      '<!DOCTYPE html><html lang="en"><head><title>Step 3 · agy-archive</title></head><body>' +
        '<article data-pagefind-body><h1>RUN_COMMAND</h1><p>npm test</p></article></body></html>',
    );
    expect(searchDocument('<html><body><main><p>task log</p></main></body></html>')).toBeUndefined();
  });
});

describe('the index made from search documents', () => {
  let build: SharedBuild;
  beforeAll(async () => {
    build = await demoBuild();
    expect(build.code).toBe(0);
  }, 600_000);
  afterAll(() => pagefind.close());

  /** Every fragment of an index of `pages` (each given as `toContent` makes it), by URL. */
  async function fragments(pages: [string, string][], toContent: (html: string) => string | undefined): Promise<Map<string, unknown>> {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
    expect(errors).toEqual([]);
    if (!index) throw new Error('no index');
    try {
      for (const [url, html] of pages) {
        const content = toContent(html);
        if (content === undefined) continue;
        const added = await index.addHTMLFile({ url, content });
        expect(added.errors).toEqual([]);
      }
      const { files } = await index.getFiles();
      const out = new Map<string, unknown>();
      for (const file of files.filter((f) => f.path.startsWith('fragment/'))) {
        const text = gunzipSync(Buffer.from(file.content)).toString('utf8');
        const fragment = JSON.parse(text.slice(text.indexOf('{'))) as { url: string };
        out.set(fragment.url, fragment);
      }
      return out;
    } finally {
      await index.deleteIndex();
    }
  }

  it('is the same, fragment by fragment, as the index of the whole pages', async () => {
    const pages: [string, string][] = htmlFiles(build.outDir)
      .filter((rel) => rel.startsWith('sessions/'))
      .map((rel) => [`/${rel.replace(/index\.html$/, '')}`, readFileSync(path.join(build.outDir, rel), 'utf8')]);
    const whole = await fragments(pages, (html) => (html.includes('data-pagefind-body') ? html : undefined));
    const documents = await fragments(pages, searchDocument);
    // Step, session and artifact pages of all five demo sessions.
    expect(whole.size).toBeGreaterThan(150);
    expect([...documents.keys()].sort()).toEqual([...whole.keys()].sort());
    for (const [url, fragment] of whole) expect(documents.get(url), url).toEqual(fragment);
    // And the documents are smaller: the frame and the ignored blocks are not sent.
    const sent = pages.reduce((n, [, html]) => n + (searchDocument(html)?.length ?? 0), 0);
    const total = pages.reduce((n, [, html]) => n + (html.includes('data-pagefind-body') ? html.length : 0), 0);
    expect(sent).toBeLessThan(total * 0.8);
  }, 120_000);
});
