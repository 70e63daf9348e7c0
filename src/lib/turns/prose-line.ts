/**
 * One line of model prose or of a request, for a header, a card or a title: Markdown marks off, cut at a word end.
 * Pure, no `astro:*` import; the session's title (`conversation/summary.ts`) and how it ended (`./ending.ts`) both
 * read their lines through here.
 */

/** Longest line `shorten` keeps by default (a title on the home card and in `<title>`). */
export const LINE_MAX = 90;

/** `text` cut to `max` characters at a word end, with an ellipsis. */
export function shorten(text: string, max = LINE_MAX): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const at = clean.lastIndexOf(' ', max - 1);
  return `${clean.slice(0, at > max * 0.6 ? at : max - 1).replace(/[\s,.;:–-]+$/, '')}…`;
}

/** Markdown marks off one line (`# `, `**`, backticks, list bullets, links kept as their text). */
export function plainLine(line: string): string {
  return line
    .replace(/^\s{0,3}(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(EMPHASIS, '$1$3')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A pair of emphasis marks around words: the opener after a line start, space or opening bracket, the closer before
 * a line end, space, closing bracket or a sentence mark that ends a word (asterisks also before CJK text, which has
 * no spaces: `**보기**를` is bold to its writer). A mark inside a word is kept: a request naming `__init__.py` was
 * titled "init.py" when every `__` was dropped (issue 27).
 */
const EMPHASIS =
  /(^|[\s([{"'“‘「『（])(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\2(?=$|[\s)\]}"'”’」』）,;:!?、。，]|\.(?!\w)|(?<=\*)[\p{sc=Hangul}\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])/gu;

/** The first non-empty line of `text` without Markdown marks; with `skipHeadings`, the first that is not a heading (when there is one). */
export function firstLine(text: string, skipHeadings = false): string {
  let heading = '';
  for (const line of text.split(/\r?\n/)) {
    const plain = plainLine(line);
    if (plain === '' || /^[-=*_|:\s]{3,}$/.test(plain) || line.trim().startsWith('```')) continue;
    if (skipHeadings && /^\s{0,3}#{1,6}\s/.test(line)) {
      heading ||= plain;
      continue;
    }
    return plain;
  }
  return heading;
}

/** A line holding only images (`![충성](https://…png)`): its alt text is a caption, not what the message says. */
const IMAGE_ONLY = /^\s*(?:!\[[^\]]*\]\([^)]*\)\s*)+$/;
/** A Markdown table row or separator (`| File | Description |`): flattened, it reads as bars and cells. */
const TABLE_ROW = /^\s*\|.*\|\s*$/;
/** Where a skipped image or table stood (no line of text is a NUL). */
const STOP = '\u0000';

/** The first line of a message that says something: headings, code, images and tables skipped, a line ending in `:` joined to what follows. */
export function leadSentence(text: string, max: number): string {
  // A table or a line of images stays as a stop (`STOP`): a line ending in `:` is not joined to what follows it.
  const prose = text
    .replace(/^\s*```[\s\S]*?(^\s*```|(?![\s\S]))/gm, '')
    .split(/\r?\n/)
    .map((l) => (IMAGE_ONLY.test(l) || TABLE_ROW.test(l) ? STOP : l));
  const lines = prose
    // Headings, and lines that are all bold (`**Implementation Plan**`), name a part; they do not say what happened.
    .filter((l) => !/^\s{0,3}#{1,6}\s/.test(l) && !/^\s*(\*\*|__)[^*_]+(\*\*|__):?\s*$/.test(l))
    .map((l) => (l === STOP ? l : plainLine(l)))
    .filter((l) => l !== '' && !/^[-=*_|:\s]{3,}$/.test(l));
  const at = lines.findIndex((l) => l !== STOP);
  // No plain sentence: an all-bold line or a heading of the prose says more than an image's alt text or a table.
  const first = lines[at] ?? (firstLine(prose.filter((l) => l !== STOP).join('\n')) || firstLine(text));
  if (!first.endsWith(':') || at < 0) return first;
  const after: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line === STOP) break;
    after.push(line);
    if (first.length + after.join('; ').length >= max) break;
  }
  return after.reduce((text, line) => `${text}${/[.!?:;]$/.test(text) ? ' ' : '; '}${line}`, first);
}

