import { describe, expect, it } from 'vitest';
import { useTempCacheDir } from '../helpers/cache-dir.ts';
import { diffRows, renderDiff, renderTextDiff } from '../../src/lib/render/diff.ts';

useTempCacheDir('render-diff-');

// A replace_file_content call as recorded: TargetContent → ReplacementContent, StartLine 40.
const target = [
  'function total(items) {',
  '  let sum = 0;',
  '  for (const item of items) {',
  '    sum += item.price;',
  '  }',
  '  return sum;',
  '}',
].join('\n');
const replacement = [
  'function total(items) {',
  '  let sum = 0;',
  '  for (const item of items) {',
  '    sum += item.price * item.quantity;',
  '    if (item.discount) sum -= item.discount;',
  '  }',
  '  return sum;',
  '}',
].join('\n');

describe('diffRows', () => {
  it('numbers a real replace from its StartLine', () => {
    const rows = diffRows(target, replacement, { startLine: 40 });
    expect(rows.map((r) => `${r.kind} ${r.oldLine ?? '-'} ${r.newLine ?? '-'} ${r.text}`)).toEqual([
      'hunk 40 40 @@ -40,7 +40,8 @@',
      'ctx 40 40 function total(items) {',
      'ctx 41 41   let sum = 0;',
      'ctx 42 42   for (const item of items) {',
      'del 43 -     sum += item.price;',
      'add - 43     sum += item.price * item.quantity;',
      'add - 44     if (item.discount) sum -= item.discount;',
      'ctx 44 45   }',
      'ctx 45 46   return sum;',
      'ctx 46 47 }',
    ]);
  });

  it('splits distant changes into hunks with 3 lines of context', () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const after = [...before];
    after[1] = 'changed 2';
    after[25] = 'changed 26';
    const rows = diffRows(before.join('\n'), after.join('\n'));
    expect(rows.filter((r) => r.kind === 'hunk').map((r) => r.text)).toEqual(['@@ -1,5 +1,5 @@', '@@ -23,7 +23,7 @@']);
    expect(rows.find((r) => r.kind === 'del' && r.text === 'line 26')?.oldLine).toBe(26);
  });

  it('handles creation, deletion, identical texts and CRLF', () => {
    expect(diffRows('', 'a\nb').map((r) => r.kind)).toEqual(['hunk', 'add', 'add']);
    expect(diffRows('', 'a\nb')[0]?.text).toBe('@@ -0,0 +1,2 @@');
    expect(diffRows('a\nb', '').map((r) => `${r.kind}${r.oldLine ?? ''}`)).toEqual(['hunk1', 'del1', 'del2']);
    expect(diffRows('same\n', 'same')).toEqual([]);
    expect(diffRows('a\r\nb\r\n', 'a\nc\n').map((r) => r.text)).toEqual(['@@ -1,2 +1,2 @@', 'a', 'b', 'c']);
  });
});

describe('renderDiff', () => {
  it('shows line numbers, markers and highlighted, escaped code', async () => {
    const html = await renderDiff(target, replacement.replace('item.discount;', 'item.discount; // </td><script>'), { language: 'js', startLine: 40 });
    expect(html).toMatch(/^<div class="code-block diff-block" data-lang="javascript"><table class="diff">/);
    expect(html).toContain(
      '<tr class="diff-del"><td class="diff-num">43</td><td class="diff-num"></td><td class="diff-marker">-</td><td class="diff-code"><span class="line">    sum ',
    );
    expect(html).toContain('<tr class="diff-add"><td class="diff-num"></td><td class="diff-num">44</td><td class="diff-marker">+</td>');
    expect(html).toContain('<span class="sl-cf222e sd-ff7b72">if</span>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script');
  });

  it('says when nothing changed', async () => {
    expect(await renderDiff('x', 'x')).toContain('No changes.');
  });

  it('keeps huge diffs complete but unhighlighted', async () => {
    const before = Array.from({ length: 3000 }, (_, i) => `const v${i} = ${i};`).join('\n');
    const after = before.replace('const v1500 = 1500;', 'const v1500 = "<new>";');
    const html = await renderDiff(before, after, { language: 'ts', context: Infinity });
    expect(html).toContain('data-lang="text"');
    expect(html).not.toContain('sl-');
    expect(html.match(/<tr class="diff-(ctx|add|del)"/g)).toHaveLength(3001);
    expect(html).toContain('const v1500 = &quot;&lt;new&gt;&quot;;');
  });

  it('diffs artifact versions as markdown', async () => {
    const html = await renderTextDiff('# Plan\n\n- step one', '# Plan\n\n- step one\n- step two');
    expect(html).toContain('data-lang="markdown"');
    expect(html).toContain('<td class="diff-num">4</td><td class="diff-marker">+</td>');
  });

  it('highlights a bounded head of each side and keeps the rest of a long edit as plain text', async () => {
    const before = Array.from({ length: 200 }, (_, i) => `let a${i} = ${i};`).join('\n');
    const after = before.replace('let a150 = 150;', 'let a150 = "changed";').replace('let a10 = 10;', 'let a10 = "x";');
    const html = await renderDiff(before, after, { language: 'typescript' });
    expect(html).toContain('Lines past 60 of each side are not highlighted.');
    const rowOf = (needle: string) => html.split('</tr>').find((r) => r.includes(needle)) ?? '';
    expect(rowOf('a10 <')).toMatch(/sl-/);
    expect(rowOf('a150 =')).toContain('diff-del');
    expect(rowOf('a150 =')).not.toMatch(/sl-/);
    expect(rowOf('&quot;changed&quot;')).toContain('diff-add');
    expect(rowOf('&quot;changed&quot;')).not.toMatch(/sl-/);
  });
});

