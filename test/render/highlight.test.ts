import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempCacheDir } from '../helpers/cache-dir.ts';
import {
  clearHighlightMemoryCache,
  highlightCacheDir,
  highlightCode,
  highlightJson,
  highlightLines,
  highlightThemeCss,
  languageForCommand,
  languageForPath,
  resolveLanguage,
  setTwoPassTokenizing,
  stringifyJson,
} from '../../src/lib/render/highlight.ts';

const cache = useTempCacheDir('render-highlight-');

/** The text a reader sees: tags stripped, entities decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('highlightCode', () => {
  it('colours the code and keeps its text, escaped', async () => {
    const code = 'const greeting = "<b>hi</b> & bye";\nconsole.log(greeting);';
    const html = await highlightCode(code, 'ts');
    expect(html).toMatch(/^<pre class="code-block" data-lang="typescript"><code>/);
    expect(html).toContain('<span class="sl-cf222e sd-ff7b72">const</span>');
    expect(html).toContain('&lt;b&gt;hi&lt;/b&gt; &amp; bye');
    expect(html).not.toContain('<b>');
    expect(visibleText(html)).toBe(code);
  });

  it('never lets a <script> in the code become markup, in any language', async () => {
    const code = '</code></pre><script>alert(1)</script><img src=x onerror=alert(2)>';
    for (const lang of ['html', 'markdown', 'text', 'nonsense', 'js']) {
      const html = await highlightCode(code, lang);
      expect(html).not.toMatch(/<(script|img)\b/);
      expect(html.match(/<\/pre>/g)).toHaveLength(1);
      expect(visibleText(html)).toBe(code);
    }
  });

  it('shows unknown languages as plain, escaped text', async () => {
    const html = await highlightCode('a < b', 'no-such-language');
    expect(html).toBe('<pre class="code-block" data-lang="text"><code><span class="line">a &lt; b</span></code></pre>');
  });

  it('highlights a bounded head of long input and keeps every other line as plain text after a divider', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `echo line${i} <tag>`);
    const html = await highlightCode(lines.join('\n'), 'bash', { maxHighlightedLines: 50 });
    expect(html).toContain('code-block--partial');
    expect(html).toContain('<span class="code-block-divider" role="separator" data-pagefind-ignore>— 950 more lines, not highlighted —</span>');
    const [head, tail] = html.split('code-block-divider');
    expect(head).toContain('<span class="sl-0550ae sd-79c0ff">echo</span> <span class="sl-0a3069 sd-a5d6ff">line49</span>');
    expect(tail).not.toContain('sl-');
    expect(tail).toContain('<span class="line">echo line50 &lt;tag&gt;</span>');
    expect(tail).toContain('<span class="line">echo line999 &lt;tag&gt;</span>');
    expect(visibleText(html.replace(/<span class="code-block-divider"[^]*?<\/span>/, '\n'))).toBe(lines.join('\n'));
  });

  it('by default highlights the first 60 lines of a 500-line file and keeps all 500 on the page', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `const v${i} = "<${i}>";`);
    const html = await highlightCode(lines.join('\n'), 'typescript');
    expect(html).toContain('— 440 more lines, not highlighted —');
    const [head, tail] = html.split('code-block-divider');
    expect(head).toContain('v59');
    expect(head).not.toContain('v60 ');
    expect(tail).not.toContain('sl-');
    expect(visibleText(html.replace(/<span class="code-block-divider"[^]*?<\/span>/, '\n'))).toBe(lines.join('\n'));
  });

  it('bounds the head by characters too, so one huge line is not tokenized', async () => {
    const code = `{"a": 1}\n${'x'.repeat(100_000)}`;
    const html = await highlightCode(code, 'json', { maxHighlightedChars: 1000 });
    expect(html).toContain('— 1 more line, not highlighted —');
    expect(visibleText(html)).toContain('x'.repeat(100_000));
  });

  it('uses only colour classes that highlightThemeCss defines', async () => {
    const samples: [string, string][] = [
      ['def f(x):\n    """doc"""\n    return x ** 2  # c', 'python'],
      ['fn main() { let s: &str = "x"; println!("{s}"); }', 'rust'],
      ['SELECT a, COUNT(*) FROM t WHERE b = \'x\' GROUP BY a;', 'sql'],
      ['---\nkey: [1, true, null]\n# c', 'yaml'],
      ['# Title\n\n**bold** _it_ `code` [l](http://x)', 'markdown'],
      ['- old\n+ new\n@@ -1 +1 @@', 'diff'],
      ['FROM node:24\nRUN npm ci', 'dockerfile'],
    ];
    for (const [code, lang] of samples) {
      const html = await highlightCode(code, lang);
      for (const [, cls] of html.matchAll(/class="([^"]+)"/g)) {
        for (const name of cls!.split(' ')) {
          if (!/^s[ld]-/.test(name)) continue;
          expect(highlightThemeCss, `${lang}: .${name}`).toContain(`.${name}{`);
        }
      }
    }
  });

  it('gives the same colours as tokenizing once per theme', async () => {
    const code = 'import x from "y";\n/** doc @param a */\nexport class A<T> extends B { #p = 1n; get q() { return `t${this.#p}`; } }';
    const single = await highlightLines(code, 'typescript');
    clearHighlightMemoryCache();
    setTwoPassTokenizing(true);
    try {
      const shikiDual = await highlightLines(`${code}\n`, 'typescript'); // different key: not served from cache
      expect(shikiDual).toEqual(single);
    } finally {
      setTwoPassTokenizing(false);
    }
  });

  it('writes a cache file and serves the same HTML from it once memory is cleared', async () => {
    const code = `print("cache test ${Date.now()}")`;
    const first = await highlightCode(code, 'python');
    const dir = highlightCacheDir();
    expect(dir).toBe(path.join(cache.dir, 'highlight'));
    const { readdir } = await import('node:fs/promises');
    const shards = await readdir(dir);
    const files = (await Promise.all(shards.map(async (s) => (await readdir(path.join(dir, s))).map((f) => path.join(dir, s, f))))).flat();
    const mine = [];
    for (const f of files) if ((await readFile(f, 'utf8')).includes('cache test')) mine.push(f);
    expect(mine).toHaveLength(1);
    expect(path.basename(path.dirname(mine[0]!))).toBe(path.basename(mine[0]!).slice(0, 2));
    expect(files.some((f) => f.endsWith('.tmp'))).toBe(false);

    clearHighlightMemoryCache();
    // Prove the second call reads the file: change the file, and see the change come back.
    const { writeFile } = await import('node:fs/promises');
    const cached = JSON.parse(await readFile(mine[0]!, 'utf8')) as string[];
    expect(await highlightCode(code, 'python')).toBe(first);
    clearHighlightMemoryCache();
    await writeFile(mine[0]!, JSON.stringify(cached.map((l) => l.replace('cache test', 'from disk'))));
    expect(await highlightCode(code, 'python')).toContain('from disk');
    expect(existsSync(mine[0]!)).toBe(true);
  });
});

describe('languages', () => {
  it('maps paths and well-known file names', () => {
    expect(
      ['src/a.ts', 'b.TSX', 'c.py', 'Dockerfile', 'x/Makefile', '/home/u/.bashrc', 'C:\\w\\run.ps1', 'a.bat', 'go.mod', 'notes', 'x.zzz', 'README.md', 'cfg.yml', 'Cargo.toml', 'q.sql', 'a.jsonl']
        .map(languageForPath),
    ).toMatchInlineSnapshot(`
      [
        "typescript",
        "tsx",
        "python",
        "docker",
        "make",
        "shellscript",
        "powershell",
        "bat",
        "go",
        "text",
        "text",
        "markdown",
        "yaml",
        "toml",
        "sql",
        "json",
      ]
    `);
    expect(languageForCommand()).toBe('shellscript');
  });

  it('resolves fence names and aliases, text when unknown', () => {
    expect(['sh', 'bash', 'js', 'py', 'c++', 'yml', 'patch', '', 'wat?', 'TEXT'].map(resolveLanguage)).toEqual([
      'shellscript', 'shellscript', 'javascript', 'python', 'cpp', 'yaml', 'diff', 'text', 'text', 'text',
    ]);
  });
});

describe('highlightJson', () => {
  it('pretty-prints with two spaces and survives cycles and BigInt', async () => {
    const value: Record<string, unknown> = { a: 1n, list: [1, 'two'], shared: { x: 1 } };
    value.self = value;
    value.again = value.shared;
    expect(stringifyJson(value)).toBe(
      '{\n  "a": "1n",\n  "list": [\n    1,\n    "two"\n  ],\n  "shared": {\n    "x": 1\n  },\n  "self": "[Circular]",\n  "again": {\n    "x": 1\n  }\n}',
    );
    const html = await highlightJson({ cmd: '<script>' });
    expect(html).toContain('data-lang="json"');
    expect(html).toContain('&quot;&lt;script&gt;&quot;');
    expect(stringifyJson(undefined)).toBe('undefined');
  });
});
