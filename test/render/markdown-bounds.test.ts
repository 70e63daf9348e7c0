/**
 * Linear rendering (issue 27): one model reply of `*_` repeated took 28–41 s at 40 KB and 69–145 s at 80 KB to
 * build (micromark resolves emphasis in time quadratic in a paragraph's marks), and 4,000 nested `>` overflowed
 * the stack of the page's render. A block past the bounds of markdown-blocks.ts is shown as written with a note;
 * every block rendered as Markdown is within them, so the parser's work on a text grows linearly with its length.
 * Work is compared through the bounds (characters times marks of each block the parser is given), never by a clock.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  blockPastBounds,
  markCount,
  markdownBlocks,
  markdownParts,
  MAX_BLOCK_CHARS,
  MAX_BLOCK_MARKS,
  MAX_LINE_CONTAINERS,
} from '../../src/lib/render/markdown-blocks.ts';
import { renderMarkdown } from '../../src/lib/render/markdown.ts';

const realRoots = ['real-brains', 'real-eras'].map((d) => path.resolve(import.meta.dirname, '../../../shared', d));

/** The probe's input and the pathological families of CommonMark's own test suite (cmark `pathological_tests.py`). */
const FAMILIES: Record<string, (n: number) => string> = {
  'star-underscore (the probe)': (n) => '*_'.repeat(n / 2),
  'nested strong emphasis': (n) => `${'*a **a '.repeat(n / 7)}b${' a** a*'.repeat(n / 7)}`,
  'emphasis closers with no openers': (n) => 'a_ '.repeat(n / 3),
  'emphasis openers with no closers': (n) => '_a '.repeat(n / 3),
  'openers and closers of different kinds': (n) => '*a_ '.repeat(n / 4),
  'link closers with no openers': (n) => 'a]'.repeat(n / 2),
  'link openers with no closers': (n) => '[a'.repeat(n / 2),
  'nested brackets': (n) => `${'['.repeat(n / 2)}a${']'.repeat(n / 2)}`,
  'unclosed links': (n) => '[a](<b'.repeat(n / 6),
  'backticks of growing length': (n) => Array.from({ length: Math.sqrt(n) }, (_, i) => `e${'`'.repeat(i + 1)}`).join(''),
  'unclosed html comments': (n) => 'a <!-- '.repeat(n / 7),
  'nested block quotes': (n) => `${'>'.repeat(n)} a`,
  'nested block quotes, one a line': (n) => Array.from({ length: Math.sqrt(n) }, (_, i) => `${'> '.repeat(i)}a`).join('\n'),
  'strikethrough': (n) => '~a'.repeat(n / 2),
  'dense blocks just under the bound': (n) => `${'*_'.repeat(MAX_BLOCK_MARKS / 2 - 1)}\n\n`.repeat(Math.max(1, Math.round(n / MAX_BLOCK_MARKS))),
};

/** An upper bound of the parser's work on `text`: characters times marks of each block it is given as Markdown. */
function parserWork(text: string): number {
  let work = 0;
  for (const part of markdownParts(text)) if (part.markdown) for (const block of markdownBlocks(part.text)) work += block.length * (markCount(block) + 1);
  return work;
}

describe('what one Markdown block renders as Markdown', () => {
  it("shows the probe's 40 KB and 80 KB replies as written, with a note, every character kept", async () => {
    for (const n of [20_000, 40_000]) {
      const text = '*_'.repeat(n);
      const html = await renderMarkdown(text, { asWritten: true });
      expect(html).toMatch(/^<p class="md-as-written-note[^"]*" data-pagefind-ignore>This block is shown as written, not rendered as Markdown: /);
      expect(html).toContain(`<pre class="md-as-written">${text}</pre>`);
      expect(html).not.toContain('<em>');
    }
  });

  it('renders the blocks around a dense one as Markdown, and shows a quote nested 4,000 deep as written', async () => {
    const dense = '*_'.repeat(MAX_BLOCK_MARKS);
    const html = await renderMarkdown(`Before **bold**.\n\n${dense}\n\nAfter *this*.\n`, { asWritten: true });
    expect(html).toContain('<p>Before <strong>bold</strong>.</p>');
    expect(html).toContain(`<pre class="md-as-written">${dense}</pre>`);
    expect(html).toContain('<p>After <em>this</em>.</p>');
    const deep = await renderMarkdown(`${'>'.repeat(4_000)} x`, { asWritten: true });
    expect(deep).toContain(`a line nested more than ${MAX_LINE_CONTAINERS} quotes or lists deep`);
    expect(deep).toContain(`<pre class="md-as-written">${'&gt;'.repeat(4_000)} x</pre>`);
  });

  it('keeps a text within bounds one Markdown part, a fenced block with blank lines one block, and the parts the whole text', () => {
    const text = 'Intro with `code` and snake_case_names.\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\n- one\n- two\n';
    expect(markdownParts(text)).toEqual([{ markdown: true, text }]);
    expect(markdownBlocks(text)).toEqual(['Intro with `code` and snake_case_names.\n\n', '```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\n', '- one\n- two\n']);
    expect(markCount('snake_case_names and __init__ and _x_')).toBe(4);
    for (const make of Object.values(FAMILIES)) {
      const t = make(20_000);
      expect(markdownParts(t).map((p) => p.text).join('')).toBe(t);
    }
    expect(blockPastBounds('a'.repeat(MAX_BLOCK_CHARS + 1))).toContain('characters, past the 65,536');
  });

  it('gives the parser only blocks within bounds, and work linear in the length of every pathological input', () => {
    for (const [name, make] of Object.entries(FAMILIES)) {
      for (const part of markdownParts(make(80_000))) {
        if (!part.markdown) continue;
        for (const block of markdownBlocks(part.text)) expect(blockPastBounds(block), name).toBeUndefined();
      }
      const small = make(20_000);
      const large = make(80_000);
      const work = [parserWork(small), parserWork(large)];
      // Four times the text, at most four times the work (and a block's worth more for the rounding of a family).
      expect(work[1], name).toBeLessThanOrEqual((4 * work[0]! || 0) + MAX_BLOCK_CHARS * (MAX_BLOCK_MARKS + 1));
      expect(work[1]! / large.length, name).toBeLessThanOrEqual(MAX_BLOCK_MARKS + 1);
    }
  });
});

describe('a pathological input just within the bounds', () => {
  it('renders as Markdown without overflowing the stack of any step after the parser', async () => {
    for (const [name, make] of Object.entries(FAMILIES)) {
      let n = 64;
      while (n < 4_096 && markdownParts(make(n * 2)).every((p) => p.markdown)) n *= 2;
      const text = make(n);
      if (!markdownParts(text).every((p) => p.markdown)) continue;
      const html = await renderMarkdown(text, { asWritten: true });
      expect(html, name).not.toContain('md-as-written');
      expect(html.length, name).toBeGreaterThan(0);
    }
  });
});

describe.skipIf(!realRoots.some((r) => fs.existsSync(r)))('the real sessions', () => {
  it('render every model reply, thinking and artifact as Markdown, none past a bound', () => {
    const past: string[] = [];
    let texts = 0;
    const check = (text: string, where: string) => {
      texts++;
      for (const part of markdownParts(text)) if (!part.markdown) past.push(`${where}: ${part.why}`);
    };
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/^(transcript(_full)?\.jsonl|overview\.txt)$/.test(e.name) || /^\d{8}\.jsonl$/.test(e.name)) {
          for (const line of fs.readFileSync(p, 'utf8').split('\n')) {
            let rec: { type?: unknown; content?: unknown; thinking?: unknown };
            try {
              rec = JSON.parse(line) as typeof rec;
            } catch {
              continue;
            }
            if (rec.type !== 'PLANNER_RESPONSE') continue;
            if (typeof rec.content === 'string') check(rec.content, p);
            if (typeof rec.thinking === 'string') check(rec.thinking, p);
          }
        } else if (!p.includes(`${path.sep}steps${path.sep}`) && (/\.md$/.test(e.name) || /\.md\.resolved(\.\d+)?$/.test(e.name))) check(fs.readFileSync(p, 'utf8'), p);
      }
    };
    for (const root of realRoots) if (fs.existsSync(root)) walk(root);
    expect(texts).toBeGreaterThan(100);
    expect(past).toEqual([]);
  });
});
