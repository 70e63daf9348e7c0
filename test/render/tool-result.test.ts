import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempCacheDir } from '../helpers/cache-dir.ts';
import { isToolResultType, parseViewedFile, renderViewedFile } from '../../src/lib/render/tool-result.ts';

useTempCacheDir('render-tool-result-');

/** The text a browser shows for `html` (tags dropped, entities decoded). */
const visibleText = (html: string) =>
  html.replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

// A view_file result as the real format writes it (SURVEY.md): header, numbered lines, closing sentence.
const viewFile = (n: number) =>
  'Created At: 2025-01-01T00:00:00Z\nFile Path: `file:///home/u/app/main.py`\nTotal Lines: 500\n' +
  Array.from({ length: n }, (_, i) => `${i + 1}: # comment ${i} <b>*x*</b>`).join('\n') +
  '\nThe above content shows the entire, complete file contents of the requested file.\n';

describe('tool results', () => {
  it('knows which step types carry a tool result', () => {
    expect(isToolResultType('RUN_COMMAND')).toBe(true);
    expect(isToolResultType('VIEW_FILE')).toBe(true);
    expect(isToolResultType('PLANNER_RESPONSE')).toBe(false);
    expect(isToolResultType('USER_INPUT')).toBe(false);
  });

  it('parses a view_file result into header, numbered lines and the rest', () => {
    const file = parseViewedFile(viewFile(3));
    expect(file?.path).toBe('/home/u/app/main.py');
    expect(file?.numbered).toEqual([
      ['1: ', '# comment 0 <b>*x*</b>'],
      ['2: ', '# comment 1 <b>*x*</b>'],
      ['3: ', '# comment 2 <b>*x*</b>'],
    ]);
    expect(parseViewedFile('Error: no such file')).toBeUndefined();
  });

  it('keeps every line of a 500-line file on the page, highlights a head, escapes everything', async () => {
    const text = viewFile(500);
    const html = (await renderViewedFile(text)) ?? '';
    expect(html).not.toContain('<b>');
    expect(html).toContain('— 440 more lines, not highlighted —');
    expect(html).toContain('data-lang="python"');
    const [head, tail] = html.split('code-block-divider');
    expect(head).toMatch(/sl-[0-9a-f]{6}/);
    expect(tail).not.toMatch(/sl-[0-9a-f]{6}/);
    const shown = visibleText(html.replace(/<span class="code-block-divider"[^]*?<\/span>/, '\n'));
    for (const line of text.trim().split('\n')) expect(shown).toContain(line);
  });
});
