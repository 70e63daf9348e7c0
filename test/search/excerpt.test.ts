/**
 * Search excerpts and filter panels of the search page (src/lib/search/): excerpts are cut from the page's plain
 * text around the hits, with the text exactly as indexed (no HTML decoding or encoding anywhere), and the filter
 * panels list every value with its count, ticked values as Pagefind `any` filters.
 */
import { describe, expect, it } from 'vitest';
import { afterHeading, contentWords, densestStart, excerptParts, excerptText, fragmentWords, sectionRange } from '../../src/lib/search/excerpt.ts';
import { filterGroups, filterValueLabel, searchFilters } from '../../src/lib/search/filters.ts';

const hit = (location: number, balanced_score = 1) => ({ location, balanced_score });

describe('excerptParts', () => {
  const words = contentWords(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '));

  it('centres a lone hit in its window and marks the ellipses where the page goes on', () => {
    const parts = excerptParts(words, [hit(50)], 0, words.length, 11);
    expect(excerptText(parts)).toBe('… w45 w46 w47 w48 w49 w50 w51 w52 w53 w54 w55 …');
    expect(parts.filter((p) => p.hit).map((p) => p.text)).toEqual(['w50']);
  });

  it('takes the window with the most hit score, and one marked run for adjacent hits', () => {
    const parts = excerptParts(words, [hit(3), hit(80, 2), hit(81, 2)], 0, words.length, 6);
    expect(parts.filter((p) => p.hit).map((p) => p.text)).toEqual(['w80 w81']);
    expect(excerptText(parts)).toMatch(/^… .*w80 w81.* …$/);
  });

  it('keeps the words as the page said them: markup and entities stay text', () => {
    const content = 'cwd is /w<meta http-equiv="refresh" content="1"> and &lt;b&gt; &amp; more';
    const parts = excerptParts(contentWords(content), [hit(3)], 0, undefined, 30);
    expect(excerptText(parts)).toBe(content);
    expect(parts.find((p) => p.hit)?.text).toBe('http-equiv="refresh"');
  });

  it('stays inside a section and starts at the page head without a hit', () => {
    expect(excerptText(excerptParts(words, [hit(12)], 10, 14, 30))).toBe('w10 w11 w12 w13');
    expect(excerptText(excerptParts(words, [], 0, words.length, 3))).toBe('w0 w1 w2 …');
  });

  it('finds section bounds from heading anchors only', () => {
    const anchors = [
      { element: 'h2', id: 'a', text: 'Commands', location: 20 },
      { element: 'span', id: 'row-1', location: 25 },
      { element: 'h2', id: 'b', text: 'Files', location: 40 },
    ];
    expect(sectionRange(anchors, 100)).toEqual([0, 20]);
    expect(sectionRange(anchors, 100, anchors[0])).toEqual([20, 40]);
    expect(sectionRange(anchors, 100, anchors[2])).toEqual([40, 100]);
  });

  it('starts a section after its heading text, when the heading is what the section begins with', () => {
    const page = contentWords('Intro text. Call 1: run_command. Ran npm test · exit 0.');
    expect(afterHeading(page, 2, 'Call 1: run_command')).toBe(5);
    expect(afterHeading(page, 0, 'Call 1: run_command')).toBe(0);
  });

  it('picks the middle of equally good windows', () => {
    expect(densestStart([hit(10)], 0, 100, 5)).toBe(8);
  });
});

describe('filterValueLabel', () => {
  it('names step types and statuses as the step pages do, whatever prefix a build writes, and other values as they are', () => {
    expect(filterValueLabel('step type', 'PLANNER_RESPONSE')).toBe('Model reply');
    expect(filterValueLabel('step type', 'CORTEX_STEP_TYPE_RUN_COMMAND')).toBe('Command result');
    expect(filterValueLabel('step type', 'ARTIFACT')).toBe('Artifact');
    expect(filterValueLabel('step type', 'BROWSER_ACTION')).toBe('Browser action');
    expect(filterValueLabel('status', 'CORTEX_STEP_STATUS_DONE')).toBe('Done');
    expect(filterValueLabel('workspace', '/code/API_V2')).toBe('/code/API_V2');
  });
});

describe('filterGroups and searchFilters', () => {
  it('orders groups and values, counts from the last search, ticked values kept', () => {
    // Parsed, as Pagefind's counts are: a tool named __proto__ is an own key like any other.
    const available = JSON.parse('{"status": {"DONE": 9, "ERROR": 1}, "product": {"b": 2, "a": 2}, "tool": {"__proto__": 1, "run": 3}}');
    const current = { status: { DONE: 0, ERROR: 1 }, product: { a: 2, b: 0 }, tool: { run: 1 } };
    const groups = filterGroups(available, current, new Map([['status', new Set(['DONE'])]]));
    expect(groups.map((g) => g.label)).toEqual(['Product', 'Tool', 'Status']);
    expect(groups[0]?.values.map((v) => `${v.value}:${v.count}`)).toEqual(['a:2', 'b:0']);
    expect(groups[1]?.values.map((v) => `${v.value}:${v.count}`)).toEqual(['run:1', '__proto__:0']);
    expect(groups[2]?.values.find((v) => v.value === 'DONE')).toEqual({ value: 'DONE', count: 0, selected: true });
  });

  it('asks Pagefind for any ticked value of a group, every group with one', () => {
    const selection = new Map([['workspace', new Set(['/a', '/b'])], ['tool', new Set<string>()], ['status', new Set(['ERROR'])]]);
    expect(searchFilters(selection)).toEqual({ workspace: { any: ['/a', '/b'] }, status: { any: ['ERROR'] } });
  });
});

describe('fragmentWords (a page Pagefind split into words: Chinese, Japanese)', () => {
  // As Pagefind returns a zh fragment: `raw_content` with a zero-width space after each word and < > escaped,
  // `content` the same text without the marks.
  const raw = 'step \u200b5 \u200b· \u200b保留\u200b夏\u200b普\u200b比率\u200b更高\u200b的\u200b &lt;\u200bb\u200b&gt; \u200b&amp;lt;\u200b';
  const content = 'step 5 · 保留夏普比率更高的 <b> &lt;';

  it('counts words as Pagefind does, each the page\'s own characters', () => {
    const { words, joined } = fragmentWords(content, raw);
    expect(joined).toBe(true);
    expect(words.slice(0, 7)).toEqual(['step ', '5 ', '· ', '保留', '夏', '普', '比率']);
    expect(words.join('')).toBe(content);
    // Any other page: its words as indexed, each with its own spacing (search/cjk.ts).
    expect(fragmentWords('plain text', 'plain text')).toEqual({ words: ['plain ', 'text'], joined: true });
  });

  it('marks a hit in the middle of a sentence without spaces added between characters', () => {
    const { words, joined } = fragmentWords(content, raw);
    const parts = excerptParts(words, [hit(4), hit(5), hit(6)], 3, words.length, 30, joined);
    expect(excerptText(parts)).toBe('保留夏普比率更高的 <b> &lt;');
    expect(parts.filter((p) => p.hit).map((p) => p.text)).toEqual(['夏普比率']);
  });
});
