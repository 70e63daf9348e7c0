/**
 * Chinese, Japanese and Korean words in the search index, found wherever they stand and never invented (issue 30).
 *
 * Pagefind 1.6 splits a `zh`/`ja` page into words with its dictionary segmenter (jieba, lindera) and a query with
 * the browser's `Intl.Segmenter`: the two disagree on compounds, so a word typed alone is not a word of the index
 * (補完 gave 4 of the 84 held-out documents holding it, 聖歌 1 of 67), and Pagefind's fallback then matches a piece of
 * it (書誌 gave 38 documents, none holding it: 手順書, 計画書). No segmenter can know every compound a person types.
 *
 * So the index holds every Chinese or Japanese run of characters as its overlapping pairs (bigrams), and every page
 * is indexed as one language that Pagefind does not segment (`forceLanguage`, `src/integrations/pagefind.ts`). A
 * query of two characters is one bigram, matched exactly; a longer one is its bigrams next to each other (an exact
 * phrase), which only a document holding the whole string has; one character matches the pairs that start with it
 * and the runs it ends.
 *
 * The indexed text says how to give back the text as written, since Pagefind's `content` keeps the words and not the
 * spacing: a run `設定ファイル` is written `設定 ^定フ ^ファ ^ァイ ^イル ^ル` (the first pair, then each next pair and the
 * last character glued to the one before by `^`), `Vue.jsの設定` as `Vue.js ^の設 ^設定 ^定`, and a word of the text
 * that starts with `^` or `~` is written with a `~` before it. Reading it back (`shownWord`): a glued word has no
 * space before it, and a word that starts with a Chinese or Japanese character shows that one character. Pagefind
 * drops ASCII punctuation from a word it indexes, so `^設定` is indexed as `設定` and `~~/src` as `~/src` was.
 * Pure: no DOM, no Astro; the search documents write `indexedText`, the search page reads `shownWord` and
 * `searchPlan`.
 */

/**
 * A run of Chinese, Japanese or Korean letters (Han, kana, the prolonged sound mark, Hangul). Korean is written with
 * spaces, but a word carries its particles (방향을) and nouns join into compounds (봉차트): as pairs, 방향 and 차트 are
 * found in them, as Chinese and Japanese words are.
 */
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC\uFF70]+/gu;
const CJK_START = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC\uFF70]/u;

/** Before a word: glued to the word before it, no space between them. */
export const GLUE = '^';
/** Before a word of the text that starts with `GLUE` or `ESCAPE`: the word as it is, after a space. */
export const ESCAPE = '~';

/** The indexed words of one run: its bigrams, then its last character (a run of one character: itself). */
function runTokens(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length === 1) return chars;
  const tokens: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) tokens.push(`${chars[i]}${chars[i + 1]}`);
  tokens.push(chars.at(-1) as string);
  return tokens;
}

/**
 * Punctuation that joins a name to what stands before it without a space: a path's separators, `key=value`,
 * `file.py:12`, `(arg`, quotes. Pagefind indexes a word whole (`scratch/token_stub.py` as `scratchtoken_stubpy`, with
 * its pieces `token`, `stub`, `py`), so a file name typed alone did not match it: the word is split after these
 * characters, the rest glued (`scratch/ ^token_stub.py`). Dots, dashes and underscores stay inside a name.
 */
const JOINERS = /([/\\:=,;|()[\]{}<>"'`]+)(?=[\p{L}\p{N}_])/gu;

/** Split names from the punctuation that joins them (`JOINERS`), gluing each name to it with `GLUE`. */
function splitNames(text: string): string {
  return text.replace(JOINERS, `$1 ${GLUE}`);
}

/**
 * The text as the index holds it (see the module comment): every word that starts with a marker escaped, names split
 * from the punctuation joining them (`JOINERS`), every Chinese, Japanese or Korean run as its bigrams and last
 * character, each glued to what stands right before it, and what follows a run without a space glued to it. A text
 * with no run, no joined name and no marker is itself.
 */
export function indexedText(text: string): string {
  const escaped = splitNames(text.replace(/(^|\s)([~^])/g, `$1${ESCAPE}$2`));
  return escaped.replace(CJK_RUN, (run: string, at: number, whole: string) => {
    const before = at > 0 && !/\s/.test(whole[at - 1] ?? '') ? ` ${GLUE}` : '';
    const end = at + run.length;
    const after = end < whole.length && !/\s/.test(whole[end] ?? '') ? ` ${GLUE}` : '';
    return `${before}${runTokens(run).join(` ${GLUE}`)}${after}`;
  });
}

/** One word of indexed content as shown: its text, and whether it is glued to the word before it. */
export interface ShownWord {
  text: string;
  glued: boolean;
}

/** A word of the indexed content (`indexedText`) as the text had it. */
export function shownWord(word: string): ShownWord {
  const glued = word.startsWith(GLUE);
  const bare = glued || word.startsWith(ESCAPE) ? word.slice(1) : word;
  if (CJK_START.test(bare)) return { text: Array.from(bare)[0] ?? '', glued };
  return { text: bare, glued };
}

/** Indexed text (a title, a heading) as the text had it. */
export function shownText(indexed: string): string {
  let out = '';
  for (const word of indexed.split(/\s+/)) {
    if (word === '') continue;
    const shown = shownWord(word);
    out += (out === '' || shown.glued ? '' : ' ') + shown.text;
  }
  return out;
}

/** The bigram an indexed word stands for, when it is one (`^設定` → `設定`). */
export function wordBigram(word: string): string | undefined {
  const bare = word.startsWith(GLUE) || word.startsWith(ESCAPE) ? word.slice(1) : word;
  const chars = Array.from(bare);
  return chars.length === 2 && CJK_START.test(bare) && CJK_START.test(chars[1] ?? '') ? bare : undefined;
}

/** What the search page asks Pagefind for a query. */
export interface SearchPlan {
  /** The term for `search()`: quoted when the whole query is one phrase. */
  term: string;
  /**
   * Exact phrases every result must hold, each searched on its own and intersected: each word of a query of several
   * words that holds Chinese, Japanese or Korean and stands for more than one indexed word (Pagefind drops a word it
   * finds nowhere, and a query of several words would then match documents without it).
   */
  phrases: string[];
  /**
   * The query as one exact phrase, when it is not one already and stands for several indexed words (`mock-data.js`,
   * `npm run build`): the documents holding it as typed are listed first (issue 30: a file name typed without
   * quotes matched its pieces, `.js` or `log`, first in 5 of 6 samples).
   */
  first?: string;
  /** The bigrams of the query, so an excerpt marks the whole pair a hit stands for. */
  bigrams: Set<string>;
}

/**
 * Text as the words the index holds for it, space-separated: each run as its bigrams (a run of one character stays
 * itself), split from the letters glued to it; in a phrase, also a run's last character when more of the phrase
 * follows it (the index writes it where a run ends, so the next words stand where the index has them; at the end of
 * a phrase the run may go on in the text, and there the index has no such word).
 */
function queryWords(text: string, phrase: boolean): string {
  return splitNames(text)
    .replace(new RegExp(`\\s\\${GLUE}`, 'g'), ' ')
    .replace(CJK_RUN, (run: string, at: number, whole: string) => {
      const end = at + run.length;
      const tokens = runTokens(run);
      const kept = tokens.length === 1 || (phrase && whole.slice(end).trim() !== '') ? tokens : tokens.slice(0, -1);
      const before = at > 0 && !/\s/.test(whole[at - 1] ?? '') ? ' ' : '';
      const after = end < whole.length && !/\s/.test(whole[end] ?? '') ? ' ' : '';
      return `${before}${kept.join(' ')}${after}`;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** Indexed words Pagefind sees in a query word (`mock-data.js` is one, `mock-data js` two). */
const wordCount = (words: string): number => words.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * The plan for a query (see `SearchPlan`). A quoted query is one phrase; a query of one word holding Chinese,
 * Japanese or Korean is one phrase of the words the index holds for it (`書誌` → `"書誌"`, `第18篇` → `"第 18 篇"`);
 * otherwise its words are searched loosely, each such word must also be found as a phrase, and the whole query as
 * typed ranks first.
 */
export function searchPlan(query: string): SearchPlan {
  const trimmed = query.trim();
  const quoted = /^".+"$/.test(trimmed);
  const inner = quoted ? trimmed.slice(1, -1) : trimmed;
  const bigrams = new Set<string>();
  for (const m of inner.matchAll(CJK_RUN)) for (const pair of runTokens(m[0])) if (Array.from(pair).length === 2) bigrams.add(pair);
  if (quoted) return { term: `"${queryWords(inner, true)}"`, phrases: [], bigrams };
  const words = inner.split(/\s+/).filter((w) => w !== '');
  // A word with a run in it, but for one character alone (it matches the pairs that start with it).
  const cjk = words.filter((w) => new RegExp(CJK_RUN.source, 'u').test(w) && Array.from(w).length > 1);
  if (words.length === 1 && cjk.length === 1) return { term: `"${queryWords(inner, true)}"`, phrases: [], bigrams };
  const plan: SearchPlan = { term: queryWords(inner, false), phrases: cjk.map((w) => `"${queryWords(w, true)}"`), bigrams };
  const whole = queryWords(inner, true);
  if (wordCount(whole) > 1 || /[\p{L}\p{N}][^\s\p{L}\p{N}]+[\p{L}\p{N}]/u.test(inner)) plan.first = `"${whole}"`;
  return plan;
}
