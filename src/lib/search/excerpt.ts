/**
 * Search excerpts built from the text Pagefind returns, never from its HTML. Pagefind's own `excerpt` is an HTML
 * string: it escapes only `<` and `>` of the page text and wraps hits in `<mark>`, so it cannot be turned back into
 * the exact text (a page that says `&lt;` literally reads as `<`) and must never reach `innerHTML`. Instead the
 * search page takes the fragment's plain `content`, splits it into words by whitespace and picks the words around
 * the hits by their `location` (the documented meaning of a location: "splitting the content key by whitespacing
 * and indexing by this number will yield the correct word"). The result is a list of text parts, each a hit or
 * not, that the page turns into text nodes and `<mark>` elements. Pure: no DOM, unit-tested.
 */

import { shownWord, wordBigram } from './cjk.ts';

/** A matched word of a page, as Pagefind reports it (`weighted_locations`). */
export interface WordHit {
  /** Index of the word in the page's content split by whitespace. */
  location: number;
  /** Pagefind's relevance of this hit (only compared with other hits of the same query). */
  balanced_score: number;
}

/** An element with an id that Pagefind saw while indexing (`anchors`); sections start at headings. */
export interface PageAnchor {
  element: string;
  id: string;
  text?: string;
  title?: string;
  /** Index of the first word after the element's id. */
  location: number;
}

/** One run of excerpt text: a hit (shown marked) or the words between hits. */
export interface ExcerptPart {
  text: string;
  hit: boolean;
}

/** Words per excerpt, as Pagefind's default. */
export const EXCERPT_WORDS = 30;

/** Pagefind's word separators: whitespace except the zero-width no-break space. */
const WORD_SEPARATORS = /[^\S\uFEFF]+/;

/** The page's words, indexed as Pagefind's locations are. */
export function contentWords(content: string): string[] {
  return content.split(WORD_SEPARATORS);
}

/** Pagefind's segment mark in a Chinese or Japanese page's content: a zero-width space after every word. */
const SEGMENT_MARK = '\u200B';

/**
 * The words of a fragment as Pagefind counts them. A page Pagefind split into words (Chinese, Japanese) has a
 * zero-width space after each word in its `raw_content` (where `<` and `>` are escaped), and there the words are
 * the pieces between those marks, each with its own trailing space: `夏\u200B普\u200B比率 \u200B` (an index built
 * before issue 30). The `content` the page shows has the marks removed; the pieces are read off it by walking both
 * texts, so every character is the page's own (a literal `&lt;` in the text stays as written). Any other page: its
 * words as indexed (`search/cjk.ts`) shown as the text had them (`shownWords`). `joined`: the words carry their own
 * spacing, so an excerpt joins them with nothing.
 */
export function fragmentWords(content: string, rawContent?: string): { words: string[]; joined: boolean } {
  if (!rawContent || !rawContent.includes(SEGMENT_MARK)) return { words: shownWords(contentWords(content)), joined: true };
  const words: string[] = [];
  let p = 0;
  for (const raw of rawContent.split(SEGMENT_MARK)) {
    const start = p;
    for (let i = 0; i < raw.length; ) {
      if (raw.startsWith('&lt;', i) && content[p] === '<') i += 4;
      else if (raw.startsWith('&gt;', i) && content[p] === '>') i += 4;
      else i += 1;
      p += 1;
    }
    words.push(content.slice(start, p));
  }
  return { words, joined: true };
}

/**
 * Indexed words (`search/cjk.ts`: Chinese and Japanese as overlapping pairs) as the text had them, each with the
 * space after it unless the next word is glued to it: `設定 ^定フ ^ファ` reads `設`, `定`, `フ`; the same positions
 * as Pagefind's locations.
 */
export function shownWords(indexed: string[]): string[] {
  const shown = indexed.map(shownWord);
  return shown.map((w, i) => {
    const next = shown[i + 1];
    return next === undefined || next.glued ? w.text : `${w.text} `;
  });
}

/**
 * A hit on an indexed pair stands for two characters, and a word shows only the first (`shownWords`): the hit is
 * widened to the next word when the query holds that pair, so `補完` is marked whole, not `補`.
 */
export function pairHits(indexed: string[], hits: WordHit[], bigrams: ReadonlySet<string>): WordHit[] {
  if (bigrams.size === 0) return hits;
  const out = [...hits];
  for (const h of hits) {
    const pair = wordBigram(indexed[h.location] ?? '');
    if (pair && bigrams.has(pair) && shownWord(indexed[h.location + 1] ?? '').glued) out.push({ location: h.location + 1, balanced_score: 0 });
  }
  return out;
}

/**
 * Where the `length`-word window inside [from, to) with the most hit score starts. Among equally good windows the
 * middle one, so a lone hit sits in the middle of its excerpt rather than at an edge (Pagefind's choice too).
 */
export function densestStart(hits: WordHit[], from: number, to: number, length: number): number {
  if (to - from <= length) return from;
  const inside = hits.filter((h) => h.location >= from && h.location < to);
  if (inside.length === 0) return from;
  // Windows that could hold a hit: the last one starts at the last hit, and none starts past to - length.
  const last = Math.min(Math.max(...inside.map((h) => h.location)), to - length);
  const scores = new Float64Array(to - from);
  for (const h of inside) scores[h.location - from] = (scores[h.location - from] ?? 0) + h.balanced_score;
  let sum = 0;
  for (let i = 0; i < length; i++) sum += scores[i] ?? 0;
  let best = sum;
  let bestStarts = [from];
  for (let start = from + 1; start <= last; start++) {
    sum += (scores[start + length - 1 - from] ?? 0) - (scores[start - 1 - from] ?? 0);
    // Sums of floats drift: treat windows within a hair of each other as equal.
    if (sum > best + 1e-9) {
      best = sum;
      bestStarts = [start];
    } else if (Math.abs(sum - best) <= 1e-9) bestStarts.push(start);
  }
  return bestStarts[Math.floor(bestStarts.length / 2)] ?? from;
}

/**
 * The excerpt of the words in [from, to) around `hits`: at most `length` words, hits as their own parts, an
 * ellipsis where the window cuts the range. Adjacent hits share a part (`npm install` is one marked run).
 */
export function excerptParts(words: string[], hits: WordHit[], from = 0, to = words.length, length = EXCERPT_WORDS, joined = false): ExcerptPart[] {
  const lo = Math.max(0, Math.min(from, words.length));
  const hi = Math.max(lo, Math.min(to, words.length));
  const start = densestStart(hits, lo, hi, length);
  const end = Math.min(hi, start + length);
  const marked = new Set(hits.map((h) => h.location));
  const parts: ExcerptPart[] = [];
  const push = (text: string, hit: boolean) => {
    const prev = parts.at(-1);
    if (prev && prev.hit === hit) prev.text += text;
    else parts.push({ text, hit });
  };
  if (start > lo) push('… ', false);
  for (let i = start; i < end; i++) {
    const word = words[i] ?? '';
    if (word === '') continue;
    const hit = marked.has(i);
    if (joined) {
      // Words that carry their own spacing (a segmented page): a hit is the word, its trailing space is not.
      const bare = word.trimEnd();
      push(bare, hit);
      if (bare.length < word.length) push(word.slice(bare.length), false);
      continue;
    }
    const prev = parts.at(-1);
    // The space between two words belongs to a hit run only when both words are hits.
    if (prev && !(prev.text.endsWith(' '))) push(' ', hit && prev.hit);
    push(word, hit);
  }
  if (end < hi) push(' …', false);
  return parts;
}

/** An anchor that opens a section of its own (Pagefind's rule for sub results: a titled anchor or a heading). */
function opensSection(a: PageAnchor): boolean {
  return Boolean((a.title && /\S/.test(a.title)) || (/^h\d$/i.test(a.element) && a.text && /\S/.test(a.text)));
}

/**
 * The word range of the section that starts at `anchor` (or the part before the first section, without one):
 * from its location up to the next section's start, or the end of the page.
 */
export function sectionRange(anchors: PageAnchor[], wordCount: number, anchor?: PageAnchor): [number, number] {
  const from = anchor?.location ?? 0;
  const next = anchors.filter((a) => opensSection(a) && a.location > from).map((a) => a.location);
  return [from, next.length > 0 ? Math.min(...next) : wordCount];
}

/** The plain text of excerpt parts (for tests and accessible names). */
export function excerptText(parts: ExcerptPart[]): string {
  return parts.map((p) => p.text).join('');
}

/**
 * Where a section's words start after its heading: a section's range begins at the heading's own text, and an
 * excerpt under a link named for the heading would say it twice ("Call 1: run_command — Call 1: run_command. Ran…").
 * Pagefind ends a heading's text with a full stop, so words are compared without trailing punctuation.
 */
export function afterHeading(words: string[], from: number, heading: string): number {
  const title = contentWords(heading.trim()).filter(Boolean);
  const bare = (w: string) => w.trim().replace(/[.:;,]+$/, '');
  const matches = title.length > 0 && title.every((w, i) => bare(words[from + i] ?? '') === bare(w));
  return matches ? from + title.length : from;
}
