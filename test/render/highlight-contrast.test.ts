/**
 * Every colour the site's code highlighting can put on a token meets WCAG AA (4.5:1) against the block's own
 * background, in both themes (issue 22: github-light's orange `#e36209` on white was 3.49:1 and github-dark's
 * comments `#6a737d` on `#24292e` 3.05:1, on 4,459 tokens of step pages).
 */
import { describe, expect, it } from 'vitest';
import { useTempCacheDir } from '../helpers/cache-dir.ts';
import { highlightCode, highlightThemeCss } from '../../src/lib/render/highlight.ts';
import { DIFF_NUMBER_COLOURS, DIFF_ROW_TINTS, diffCss } from '../../src/lib/render/diff.ts';

useTempCacheDir('render-contrast-');

function luminance(hex: string): number {
  const channels = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two `rrggbb` colours. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Background and foreground of one theme, and every token colour its classes can set. */
function themeOf(prefix: 'sl' | 'sd'): { bg: string; fg: string; tokens: string[] } {
  const tokens = [...highlightThemeCss.matchAll(new RegExp(`\\.${prefix}-([0-9a-f]{6})\\{--${prefix}:#([0-9a-f]{6})\\}`, 'g'))].map(
    (m) => m[2] as string,
  );
  // The switch rule that applies this theme sets the block's own colours: `.code-block{--code-fg:#…;--code-bg:#…}`.
  const switchRule = new RegExp(`\\.code-block\\{--code-fg:#([0-9a-f]{6});--code-bg:#([0-9a-f]{6})\\}\\n[^\\n]*var\\(--${prefix},`);
  const m = switchRule.exec(highlightThemeCss);
  if (!m) throw new Error(`no colour switch for ${prefix}`);
  return { fg: m[1] as string, bg: m[2] as string, tokens };
}

describe('highlight colours', () => {
  for (const [name, prefix] of [['light', 'sl'], ['dark', 'sd']] as const) {
    it(`every ${name} token colour is AA on the ${name} background`, () => {
      const theme = themeOf(prefix);
      expect(theme.tokens.length).toBeGreaterThan(5);
      expect(contrast(theme.fg, theme.bg)).toBeGreaterThanOrEqual(4.5);
      const failing = theme.tokens.filter((t) => contrast(t, theme.bg) < 4.5).map((t) => `#${t} ${contrast(t, theme.bg).toFixed(2)}:1`);
      expect(failing).toEqual([]);
    });
  }

  it('a diff\'s line numbers are AA on its plain, added, removed and hunk rows, in both themes', () => {
    expect(diffCss).toContain(`color:light-dark(#${DIFF_NUMBER_COLOURS.light},#${DIFF_NUMBER_COLOURS.dark})`);
    expect(diffCss).not.toMatch(/diff-num\{[^}]*opacity/);
    const over = (bg: string, [r, g, b, a]: readonly number[]): string =>
      [r, g, b]
        .map((c, i) => Math.round((c as number) * (a as number) + parseInt(bg.slice(i * 2, i * 2 + 2), 16) * (1 - (a as number))))
        .map((c) => c.toString(16).padStart(2, '0'))
        .join('');
    for (const [prefix, number] of [['sl', DIFF_NUMBER_COLOURS.light], ['sd', DIFF_NUMBER_COLOURS.dark]] as const) {
      const { bg } = themeOf(prefix);
      for (const row of [bg, ...Object.values(DIFF_ROW_TINTS).map((t) => over(bg, t))]) {
        expect(contrast(number, row), `#${number} on #${row}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('a highlighted block uses only those colours', async () => {
    const html = await highlightCode('// comment\nconst a = { "k": 1 }; // x\nfunction f(n: number) { return `t${n}`; }\n', 'ts');
    const light = new Set(themeOf('sl').tokens);
    const dark = new Set(themeOf('sd').tokens);
    const used = [...html.matchAll(/\b(sl|sd)-([0-9a-f]{6})\b/g)];
    expect(used.length).toBeGreaterThan(3);
    for (const [, prefix, hex] of used) expect((prefix === 'sl' ? light : dark).has(hex as string)).toBe(true);
  });
});
