import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTempCacheDir } from '../helpers/cache-dir.ts';
import { propertyRuns } from '../helpers/properties.ts';
import { renderDiff } from '../../src/lib/render/diff.ts';
import { highlightCode } from '../../src/lib/render/highlight.ts';
import { renderMarkdown } from '../../src/lib/render/markdown.ts';

useTempCacheDir('render-safety-');

/** Pieces hostile text is made of, so random strings hit the interesting cases often. */
const hostile = fc.array(
  fc.oneof(
    fc.constantFrom(
      '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '</pre>', '</code>', '<iframe src=//e>', '"', "'", '&', '&amp;',
      '<svg onload=x>', '[x](javascript:alert(1))', '![i](data:image/svg+xml,<svg>)', '<a href="vbscript:x">a</a>', '```', '```html\n',
      '\n', '\r\n', '<!--', '-->', '<style>*{}</style>', '{{x}}', '\u0000', '\u2028',
    ),
    fc.string({ maxLength: 8 }),
  ),
  { maxLength: 12 },
).map((parts) => parts.join(''));

/** Tags the helpers may emit; anything else means text became markup. */
const ALLOWED_TAGS = new Set(['pre', 'code', 'span', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'div', 'p', 'a', 'em', 'strong', 'del', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'hr', 'br', 'input', 'img', 'sup', 'section']);

/** Decodes the entities an attribute value may carry, so `&#x6A;avascript:` is seen for what it is. */
function decode(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/**
 * Every `<` left in the output must open one of the expected tags (text `<` is escaped), with only quoted
 * attributes, none of them an event handler or a style, and no link or source with a dangerous scheme.
 */
function assertSafe(html: string): void {
  const tagPattern = /<\/?([a-zA-Z][\w-]*)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*\/?>/g;
  const tags = [...html.matchAll(tagPattern)];
  expect(html.split('<').length - 1, `a stray < in ${html}`).toBe(tags.length);
  for (const [, tag, attrs] of tags) {
    expect(ALLOWED_TAGS, `<${tag}> in ${html}`).toContain(tag!.toLowerCase());
    for (const [, name, value] of (attrs ?? '').matchAll(/([\w:-]+)(?:="([^"]*)")?/g)) {
      expect(name!.toLowerCase()).not.toMatch(/^on|^style$|^srcdoc$|^formaction$/);
      if (/^(href|src)$/i.test(name!)) expect(decode(value ?? '').replace(/[\s\u0000-\u001f]/g, '')).not.toMatch(/^(javascript|data|vbscript):/i);
    }
  }
}

describe('hostile text never becomes markup', () => {
  it('in highlighted code', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, fc.constantFrom('html', 'markdown', 'ts', 'text', 'x<y'), async (code, lang) => {
        assertSafe(await highlightCode(code, lang));
      }),
      propertyRuns(30),
    );
  });

  it('in markdown', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (text) => {
        assertSafe(await renderMarkdown(text));
      }),
      propertyRuns(150),
    );
  });

  it('in diffs', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (a, b) => {
        assertSafe(await renderDiff(a, b, { language: 'html' }));
      }),
      propertyRuns(25),
    );
  });
});
