import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempCacheDir } from '../helpers/cache-dir.ts';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { clearMarkdownCache, renderMarkdown } from '../../src/lib/render/markdown.ts';

const cache = useTempCacheDir('render-markdown-');

describe('renderMarkdown', () => {
  it('moves headings under the page when asked: the highest becomes headingsFrom, levels used follow one another', async () => {
    const levels = (html: string) => [...html.matchAll(/<h([1-6])>/g)].map((m) => Number(m[1]));
    const text = '# USER Objective\n\ntext\n\n### Progress\n\n#### Detail\n\n# Next';
    expect(levels(await renderMarkdown(text))).toEqual([1, 3, 4, 1]);
    expect(levels(await renderMarkdown(text, { headingsFrom: 3 }))).toEqual([3, 4, 5, 3]);
    expect(levels(await renderMarkdown('## a\n\n###### b', { headingsFrom: 5 }))).toEqual([5, 6]);
    // Never deeper than one below the heading before it, whatever levels the text uses later.
    expect(levels(await renderMarkdown('# a\n\n##### b\n\n### c\n\n##### d', { headingsFrom: 3 }))).toEqual([3, 4, 4, 5]);
  });

  it('renders headings, emphasis, lists, tables and task lists', async () => {
    const html = await renderMarkdown(
      '# Plan\n\n**Bold** and _it_ and ~~gone~~.\n\n- [x] done\n- [ ] todo\n\n| File | Lines |\n| --- | ---: |\n| a.ts | 3 |\n',
    );
    expect(html).toContain('<h1>Plan</h1>');
    expect(html).toContain('<strong>Bold</strong>');
    expect(html).toContain('<del>gone</del>');
    expect(html).toContain('<input type="checkbox" checked disabled>');
    expect(html).toContain('<table>');
    expect(html).toContain('<td>a.ts</td>');
  });

  it('drops raw HTML: scripts, iframes, event handlers, styles', async () => {
    const html = await renderMarkdown(
      'Hi <script>alert(1)</script> there\n\n<iframe src="https://evil.example"></iframe>\n\n<img src=x onerror="alert(2)">\n\n<div style="position:fixed">x</div>\n\n<b onclick="x()">b</b>',
    );
    expect(html).not.toMatch(/<(script|iframe|div|img|style)\b/i);
    expect(html).not.toMatch(/onerror|onclick|alert\(2\)/);
    expect(html).toContain('Hi');
    expect(html).toContain('there');
  });

  it('drops javascript:, data: and vbscript: links and images, keeps normal links with rel', async () => {
    const html = await renderMarkdown(
      '[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html;base64,PHNjcmlwdD4=) [d](vbscript:msgbox) ' +
        '[ok](https://example.com/x?y=1&z=2) [rel](docs/plan.md) <https://auto.example>\n\n![pic](data:image/png;base64,AAAA)',
    );
    expect(html).not.toMatch(/javascript:|data:|vbscript:/i);
    expect(html).toContain('<a href="https://example.com/x?y=1&#x26;z=2" rel="nofollow noopener noreferrer">ok</a>');
    // A relative target leads nowhere on this site: its words, then the target as text (render/links.ts).
    expect(html).toContain('rel (docs/plan.md)');
    expect(html).toContain('<a href="https://auto.example" rel="nofollow noopener noreferrer">https://auto.example</a>');
    expect(html).toContain('<span class="md-image-removed">[image: pic]</span>');
    expect(html).not.toContain('<img');
  });

  it('turns remote images into links and shows a relative one as its target', async () => {
    const html = await renderMarkdown('![chart](https://cdn.example/c.png)\n\n![local](media/shot.png)\n\n[![badge](https://x.example/b.svg)](https://x.example)');
    expect(html).toContain(
      '<a href="https://cdn.example/c.png" rel="nofollow noopener noreferrer" class="md-remote-image">[image: chart] https://cdn.example/c.png</a>',
    );
    expect(html).toContain('[image: local] (media/shot.png)');
    expect(html).toContain('<a href="https://x.example" rel="nofollow noopener noreferrer"><span class="md-remote-image">[image: badge] https://x.example/b.svg</span></a>');
    expect(html).not.toContain('<img src="http');
  });

  it('highlights fenced code from its text, escaped, and keeps inline code', async () => {
    const html = await renderMarkdown('Run `npm <x>`:\n\n```ts\nconst a = "</pre><script>alert(1)</script>";\n```\n\n```\nplain <b>\n```');
    expect(html).toContain('<code>npm &#x3C;x></code>');
    expect(html).toContain('<pre class="code-block" data-lang="typescript"><code><span class="line"><span class="sl-cf222e sd-ff7b72">const</span>');
    expect(html).not.toMatch(/<script/);
    expect(html).toContain('&lt;/pre&gt;&lt;script&gt;');
    expect(html).toContain('<pre class="code-block" data-lang="text"><code><span class="line">plain &lt;b&gt;</span></code></pre>');
  });

  it('returns the same HTML from its cache and an empty string for empty input', async () => {
    const text = '## Same\n\n```py\nprint(1)\n```';
    expect(await renderMarkdown(text)).toBe(await renderMarkdown(text));
    expect(await renderMarkdown('  \n')).toBe('');
  });

  it('keeps rendered HTML on disk and serves it after the memory cache is cleared', async () => {
    const text = `Disk cache check ${Date.now()}`;
    const first = await renderMarkdown(text);
    const dir = path.join(cache.dir, 'markdown');
    const files = (await Promise.all((await readdir(dir)).map(async (s) => (await readdir(path.join(dir, s))).map((f) => path.join(dir, s, f))))).flat();
    const mine: string[] = [];
    for (const f of files) if ((await readFile(f, 'utf8')) === first) mine.push(f);
    expect(mine).toHaveLength(1);
    clearMarkdownCache();
    await writeFile(mine[0]!, first.replace('Disk cache check', 'Served from disk'));
    expect(await renderMarkdown(text)).toContain('Served from disk');
  });
});
