/**
 * Decoded readings of a text, so that a secret written in an encoded form is found, and the way back from a
 * position in a reading to the text itself, so that the encoded form is what gets replaced.
 *
 * Why: a transcript line is JSON, so the text inside it is escaped (`\n`, `\"`, `\u0067`, `\/`), and compact tool
 * arguments are JSON strings inside that JSON (escaped twice). An escape's last character touches what follows it:
 * in `\nghp_…` the token follows the letter `n`, so a rule that wants a boundary before `ghp_` never matches, and
 * `\u0067hp_…` or `postgres:\/\/` does not even contain the rule's literal. URLs percent-encode (`ghp%5F…`).
 * Scanning each decoded reading, and mapping every hit back onto whole escapes of the text, covers every form.
 *
 * A token glued to the word before it (`TOKENghp_…`, `keyAKIA…`) is missed the same way, by rules that want a
 * boundary before the token. `scan.ts` adds a reading with a space in place of the character just before each
 * such token: the same length, so its positions are the text's own (layer `unglued`).
 */

/** One reading of a root text: the text itself, or one more layer of escapes decoded from its parent. */
export interface Reading {
  text: string;
  /** The reading this one was decoded from; absent for the root text itself. */
  parent?: Reading;
  /** The kind of escapes decoded from the parent. */
  layer?: Layer;
  /** Where each decoded escape sits, built the first time a position is mapped back (given for `rendered`). */
  escapes?: EscapeMap;
}

/** `rendered`: the text as its Markdown renders (`rendered.ts`), mapped back through the reading's own `escapes`. */
export type Layer = 'json' | 'percent' | 'unglued' | 'rendered';

/**
 * JSON's escapes. The tokenizer and the decoder are the same regex, so both agree on where escapes are: `\\` is
 * tried first at each backslash, so a run of backslashes pairs up from its left as JSON reads it. An unknown
 * escape (`\q`) or a short `\u12` is left as written.
 */
const JSON_ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/g;
const JSON_SIMPLE: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
/**
 * `%XX` of URLs: a single byte, or a 2- or 3-byte UTF-8 sequence as one escape (a word for a password in Korean,
 * Japanese or Chinese, percent-encoded in a query). Each escape decodes to one UTF-16 character, as the position
 * map needs; 4-byte sequences (emoji) stay bytes, no pattern needs them.
 */
const PERCENT_ESCAPE = /%[cdCD][0-9a-fA-F]%[89abAB][0-9a-fA-F]|%[eE][0-9a-fA-F](?:%[89abAB][0-9a-fA-F]){2}|%[0-9a-fA-F]{2}/g;
const HAS_PERCENT_ESCAPE = /%[0-9a-fA-F]{2}/;

/**
 * JSON escaping nested deeper than this is not decoded. Compact tool arguments are 2 levels deep, an argument
 * holding JSON text 3; the limit bounds the work on hostile text, where `\u005cu005c…` would otherwise peel one
 * escape per level and make a level per 5 characters.
 */
export const MAX_JSON_DEPTH = 6;

function decodeJsonEscape(escape: string): string {
  return escape[1] === 'u' ? String.fromCharCode(Number.parseInt(escape.slice(2), 16)) : JSON_SIMPLE[escape[1]!]!;
}

function decodePercentEscape(escape: string): string {
  if (escape.length === 3) return String.fromCharCode(Number.parseInt(escape.slice(1), 16));
  try {
    return decodeURIComponent(escape); // a 2- or 3-byte UTF-8 sequence: one character (`%EB%B9%84` is 비)
  } catch {
    return '\uFFFD'; // bytes that are not UTF-8: one character all the same, so positions still map
  }
}

/**
 * Every reading of `text` to scan: the text itself (unless `json`: a JSON document says the same, escapes
 * resolved, in its first decoded reading), each level of JSON escapes decoded in turn while a level still decodes
 * something, and the percent-decoded form of each reading that holds `%XX`.
 */
export function readingsOf(text: string, json = false): Reading[] {
  const root: Reading = { text };
  const readings: Reading[] = [];
  let current = root;
  if (!json || !text.includes('\\')) readings.push(root);
  for (let depth = 0; depth < MAX_JSON_DEPTH && current.text.includes('\\'); depth++) {
    const decoded = current.text.replace(JSON_ESCAPE, decodeJsonEscape);
    if (decoded.length === current.text.length) break; // every escape decodes to one shorter character
    current = { text: decoded, parent: current, layer: 'json' };
    readings.push(current);
  }
  if (readings.length === 0) readings.push(root); // only escapes JSON does not know: the text is its own reading
  for (const reading of readings.slice()) {
    if (!HAS_PERCENT_ESCAPE.test(reading.text)) continue;
    readings.push({ text: reading.text.replace(PERCENT_ESCAPE, decodePercentEscape), parent: reading, layer: 'percent' });
  }
  return readings;
}

/** The range `[start, end)` of `reading`, as a range of the root text covering every escape it touches whole. */
export function rangeInRoot(reading: Reading, start: number, end: number): [number, number] {
  let r = reading;
  while (r.parent) {
    if (r.layer === 'unglued') {
      r = r.parent; // same length, same positions
      continue;
    }
    const map = (r.escapes ??= mapEscapes(r.parent.text, r.layer!));
    if (end > start) {
      const last = map.source(end - 1);
      start = map.source(start).start;
      end = last.end;
      end = Math.max(start, end); // a range ending on a separator a rendered reading added
    } else {
      start = end = map.source(start).start;
    }
    r = r.parent;
  }
  return [start, end];
}

/** Where the escapes decoded from a parent text sit, in the parent and in the decoded text. */
export interface EscapeMap {
  /** The range of the parent that the decoded text's character at `position` came from. */
  source(position: number): { start: number; end: number };
}

function mapEscapes(parent: string, layer: Layer): EscapeMap {
  const pattern = layer === 'json' ? JSON_ESCAPE : PERCENT_ESCAPE;
  // For escape k: its position in the decoded text, its start in the parent, and its length there.
  const decodedAt: number[] = [];
  const parentAt: number[] = [];
  const lengths: number[] = [];
  let shrink = 0;
  for (const match of parent.matchAll(pattern)) {
    decodedAt.push(match.index - shrink);
    parentAt.push(match.index);
    lengths.push(match[0].length);
    shrink += match[0].length - 1;
  }
  return {
    source(position) {
      // The last escape at or before `position` in the decoded text.
      let lo = 0;
      let hi = decodedAt.length - 1;
      let k = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (decodedAt[mid]! <= position) {
          k = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      if (k < 0) return { start: position, end: position + 1 };
      if (decodedAt[k] === position) return { start: parentAt[k]!, end: parentAt[k]! + lengths[k]! };
      const at = parentAt[k]! + lengths[k]! + (position - decodedAt[k]! - 1);
      return { start: at, end: at + 1 };
    },
  };
}

/** The index of the last of the ascending `starts` at or before `position` (0 when none is). */
export function lastStartAtOrBefore(starts: readonly number[], position: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
