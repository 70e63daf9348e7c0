/**
 * The language of a text, told from its script (issue 21: pages and blocks carry the language of their text). The
 * script is enough for what the site needs: Hangul is Korean, kana is Japanese (Japanese prose always has kana;
 * Chinese never does), Han alone is Chinese, and Devanagari, Cyrillic, Arabic, Hebrew, Greek and Thai name their
 * usual language. Latin letters do not tell English from Portuguese: a Latin text has no language of its own here
 * and takes the default (`en`), as every page did before.
 *
 * `languageOf` is the dominant language (a page's `<html lang>`, a block's `lang`), so screen readers pick the right
 * voice and CJK wraps as its readers expect. (The search indexes every document as one language and writes Chinese
 * and Japanese its own way: `search/cjk.ts`.) Pure: no Astro.
 */

/** The language of Latin (or script-less) text. */
export const DEFAULT_LANGUAGE = 'en';

/** Letters counted per script; enough to decide a language, not a census of the text. */
interface ScriptCounts {
  latin: number;
  hangul: number;
  kana: number;
  han: number;
  other: Map<string, number>;
}

/** Scripts that name one usual language, beside Latin and CJK. */
const OTHER_SCRIPTS: [RegExp, string][] = [
  [/\p{Script=Devanagari}/u, 'hi'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Thai}/u, 'th'],
];

/** Characters looked at: a page's first 20,000 are its language (a 1 MB output need not be read whole). */
const SAMPLE_CHARS = 20_000;

function countScripts(text: string): ScriptCounts {
  const counts: ScriptCounts = { latin: 0, hangul: 0, kana: 0, han: 0, other: new Map() };
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  for (const ch of sample) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x80) {
      if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) counts.latin++;
      continue;
    }
    if (/\p{Script=Hangul}/u.test(ch)) counts.hangul++;
    else if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(ch) && ch !== 'ー' && ch !== '・') counts.kana++;
    else if (/\p{Script=Han}/u.test(ch)) counts.han++;
    else if (/\p{Script=Latin}/u.test(ch)) counts.latin++;
    else if (/\p{L}/u.test(ch)) {
      const hit = OTHER_SCRIPTS.find(([re]) => re.test(ch));
      if (hit) counts.other.set(hit[1], (counts.other.get(hit[1]) ?? 0) + 1);
    }
  }
  return counts;
}

/** Which CJK language its characters are: mostly Hangul → ko, kana among the Han (≥ 5 %) → ja, else zh. */
function cjkLanguage(c: ScriptCounts): string | undefined {
  if (c.hangul + c.kana + c.han === 0) return undefined;
  if (c.hangul > c.kana + c.han) return 'ko';
  if (c.kana > 0 && c.kana * 20 >= c.kana + c.han) return 'ja';
  return c.hangul >= c.han ? 'ko' : 'zh';
}

/**
 * Words, about, of each script: a CJK character is about a word (Chinese words are 1–2 characters, a Korean word
 * 2–3 syllables), a Latin word about five letters. Compared so that one Korean sentence in a page of English code
 * does not make the page Korean, and a Korean page with an English path in it stays Korean.
 */
const LATIN_LETTERS_PER_WORD = 5;
const CJK_CHARS_PER_WORD = 1.5;

/**
 * The dominant language of `text` (a BCP 47 tag), or undefined when it has no letters. Latin text is
 * `DEFAULT_LANGUAGE`. Given many texts (a session's requests and replies), each text with letters is one vote, so a
 * pasted file does not outweigh a conversation held in Korean; a tie goes to the language that is not the default.
 */
export function languageOf(text: string | readonly string[]): string | undefined {
  if (typeof text !== 'string') {
    const votes = new Map<string, number>();
    for (const t of text) {
      const lang = languageOf(t);
      if (lang) votes.set(lang, (votes.get(lang) ?? 0) + 1);
    }
    const ranked = [...votes].sort(([a, x], [b, y]) => y - x || Number(a === DEFAULT_LANGUAGE) - Number(b === DEFAULT_LANGUAGE));
    return ranked[0]?.[0];
  }
  const c = countScripts(text);
  const cjkWords = (c.hangul + c.kana + c.han) / CJK_CHARS_PER_WORD;
  const latinWords = c.latin / LATIN_LETTERS_PER_WORD;
  let best: [string, number] | undefined = latinWords > 0 ? [DEFAULT_LANGUAGE, latinWords] : undefined;
  const cjk = cjkLanguage(c);
  if (cjk && (!best || cjkWords > best[1])) best = [cjk, cjkWords];
  for (const [lang, n] of c.other) {
    const words = n / LATIN_LETTERS_PER_WORD;
    if (!best || words > best[1]) best = [lang, words];
  }
  return best?.[0];
}

/** A block's `lang` attribute: its own language when it has one and it is not the page's, else undefined. */
export function blockLanguage(text: string, pageLanguage: string = DEFAULT_LANGUAGE): string | undefined {
  const lang = languageOf(text);
  return lang && lang !== pageLanguage ? lang : undefined;
}
