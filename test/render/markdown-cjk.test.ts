/**
 * Emphasis beside Korean, Japanese and Chinese text (issue 28): CommonMark's flanking rule leaves `**보기**를` and
 * `**请注意：**这里` literal; remark-cjk-friendly closes them as their writers meant. On written cases and on every
 * model reply of the real sessions (skipped when ../shared is absent).
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/lib/render/markdown.ts';
import { useTempCacheDir } from '../helpers/cache-dir.ts';
import { readHome, sharedHome } from '../brain/helpers.ts';

useTempCacheDir('render-markdown-cjk-');
const homes = ['real-brains', 'real-eras'].map(sharedHome).filter((p) => p !== undefined);
const CJK = /[\p{sc=Hangul}\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u;

describe('emphasis beside CJK text', () => {
  it.each([
    ['**보기**를 눌러', '<strong>보기</strong>를'],
    ['「**重要**」です', '「<strong>重要</strong>」です'],
    ['**请注意：**这里', '<strong>请注意：</strong>这里'],
    ['*한국어*는', '<em>한국어</em>는'],
  ])('%s', async (text, html) => {
    expect(await renderMarkdown(text, { asWritten: true })).toContain(html);
  });

  it('changes nothing between Latin words', async () => {
    expect(await renderMarkdown('a **b** c and snake_case_name and 2*3*4', { asWritten: true })).toBe('<p>a <strong>b</strong> c and snake_case_name and 2<em>3</em>4</p>');
  });
});

describe.skipIf(homes.length === 0)('the real replies', () => {
  it('leave no ** beside CJK text unrendered', async () => {
    const left: string[] = [];
    let checked = 0;
    for (const home of homes) {
      for (const s of await readHome(home)) {
        for (const st of s.steps) {
          const text = st.type === 'PLANNER_RESPONSE' ? st.content : undefined;
          if (!text || !text.includes('**') || !CJK.test(text)) continue;
          checked++;
          const html = (await renderMarkdown(text, { asWritten: true })).replace(/<(pre|code)\b[\s\S]*?<\/\1>/g, '');
          for (const m of html.matchAll(/.{0,12}\*\*.{0,12}/gu)) if (CJK.test(m[0])) left.push(`${s.id.slice(0, 8)} ${st.key}: ${m[0]}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(left).toEqual([]);
  }, 120_000);
});
