/**
 * A reading of a text as its Markdown renders, for the prose rules (`prose.ts`, issue 27 point 4): a reply writes
 * "The database password is **X**", "- **Password**: `X`" or a table row "| Password | X |", and the page, the
 * search index and the export show `X` right after the word, while the marks between them hide it from a rule that
 * wants the word, a joiner and the value. In this reading the marks are gone (emphasis, code spans, fence lines,
 * inline HTML tags, backslash escapes) and each table row is written as the prose it reads as: each cell after the
 * one before it ("Password: X"), and each cell after its column's header when the header names a password
 * ("Password: X" for "| admin | X |" under "| User | Password |").
 *
 * Hand-written and linear rather than a Markdown parser: it runs over every string that mentions a password, and a
 * parser's emphasis resolution is quadratic on hostile input (issue 27 point 6: 40 KB of `*_` took 28 s).
 * Hits are mapped back through `escapes`, so the value as written is what gets replaced (`rangeInRoot`).
 */
import type { EscapeMap, Reading } from './readings.ts';

/** A text holding none of these has no mark this reading removes and no table. */
const MARKUP = /[*_`~|<\\]/;
/** The next character where inline rendering differs from the text. */
const INLINE_MARK = /[*_`~<\\]/g;
/** Inline HTML tags that only style their text (`<b>X</b>`, `<code>X</code>`): dropped, their text kept. */
const STYLE_TAG = /<\/?(?:b|strong|em|i|u|s|del|ins|mark|code|kbd|samp|tt|var|span|sub|sup)(?:\s[^<>\n]{0,80})?>/iy;
/** A fence line: ``` or ~~~ and an info string without backticks. The line is not text; its code is kept as is. */
const FENCE = /^ {0,3}(`{3,}|~{3,})[^`]*$/;
/** A table's delimiter row: `|---|:--:|`, `--- | ---`. */
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
/** A table header that names a password (its column's cells are then read after it); see PROSE_PREFILTER_SOURCES. */
const PASSWORD_HEADER =
  /pass(?:word|wd|phrase|code)?\b|\bpwd\b|\bpw\b|\bpin\b|비밀\s?번호|암호|패스워드|パスワード|暗証番号|密码|密碼|口令|contrase|senha|mot de passe|passwort|kennwort|пароль|wachtwoord|has[łl]o|parola|[şs]ifre|kata sandi|m[ậa]t kh[ẩa]u|पासवर्ड/i;
/** A header longer than this is not copied before its column's cells. */
const MAX_HEADER = 64;
/** Header columns copied before their cells, per table. */
const MAX_HEADER_COLUMNS = 16;
/** ASCII punctuation, which a backslash escapes in Markdown. */
const ESCAPABLE = /[!-/:-@[-`{-~]/;
const PUNCTUATION = /[\p{P}\p{S}]/u;
const SPACE = /\s/;
const WORD = /[\p{L}\p{N}]/u;

/**
 * The rendered reading of `reading`, or `undefined` when rendering changes nothing. Its `escapes` map each of its
 * characters to the character of `reading` it shows; the separators a table row is written with map to nothing
 * (an empty range at the cell they stand before).
 */
export function renderedReading(reading: Reading): Reading | undefined {
  const text = reading.text;
  if (!MARKUP.test(text)) return undefined;
  const out = new Rendering(text);
  const lines = lineRanges(text);
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const [start, end] = lines[i]!;
    const line = text.slice(start, end);
    if (fence !== undefined) {
      if (line.trimStart().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') fence = undefined;
      else out.copy(start, end);
    } else if (FENCE.test(line)) {
      fence = FENCE.exec(line)![1];
    } else if (line.includes('|') && i + 1 < lines.length && DELIMITER_ROW.test(text.slice(...lines[i + 1]!)) && !isBlank(line)) {
      i = renderTable(out, lines, i);
    } else if (/^\s*\|.*\|\s*$/.test(line)) {
      renderRow(out, cellsOf(text, start, end), undefined);
    } else {
      renderInline(out, start, end);
    }
    const lineEnd = lines[i]![1]; // a table's last line, after renderTable
    if (lineEnd < text.length) out.copy(lineEnd, lineEnd + 1); // the line's own newline
  }
  const rendered = out.text();
  return rendered === text ? undefined : { text: rendered, parent: reading, layer: 'rendered', escapes: out.map() };
}

/** The `[start, end)` of each line of `text`, without its `\n`. */
function lineRanges(text: string): [number, number][] {
  const lines: [number, number][] = [];
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if (end < 0) {
      lines.push([start, text.length]);
      return lines;
    }
    lines.push([start, end]);
    start = end + 1;
  }
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** Renders the table whose header is line `first`; returns the index of its last line. */
function renderTable(out: Rendering, lines: [number, number][], first: number): number {
  const text = out.source;
  const header = cellsOf(text, ...lines[first]!);
  renderRow(out, header, undefined);
  out.copy(lines[first]![1], lines[first]![1] + 1);
  // Columns whose cells read after their header: those named for a password, short enough to copy.
  const labels = header.map(([s, e], column) =>
    column < MAX_HEADER_COLUMNS && e - s <= MAX_HEADER && PASSWORD_HEADER.test(text.slice(s, e)) ? ([s, e] as const) : undefined,
  );
  let i = first + 1; // the delimiter row: no text
  while (i + 1 < lines.length) {
    const [start, end] = lines[i + 1]!;
    const line = text.slice(start, end);
    if (isBlank(line) || !line.includes('|')) break;
    out.copy(lines[i]![1], lines[i]![1] + 1);
    renderRow(out, cellsOf(text, start, end), labels);
    i++;
  }
  return i;
}

/**
 * A row as prose: each cell after the one before it, then each cell after its column's label. Separators are
 * written as `: ` and a newline; past the rendering's budget only the cells are written.
 */
function renderRow(out: Rendering, cells: [number, number][], labels: (readonly [number, number] | undefined)[] | undefined): void {
  for (let c = 0; c < cells.length; c++) {
    const [start, end] = cells[c]!;
    if (c > 0 && out.withinBudget()) out.add(': ', start);
    else if (c > 0) out.add(' ', start);
    renderInline(out, start, end);
  }
  if (!labels) return;
  for (let c = 0; c < cells.length; c++) {
    const label = labels[c];
    if (!label || !out.withinBudget()) continue;
    const [start, end] = cells[c]!;
    out.add('\n', start);
    renderInline(out, label[0], label[1]);
    out.add(': ', start);
    renderInline(out, start, end);
  }
}

/** The cells of a table row, each trimmed; a `\|` is part of a cell. */
function cellsOf(text: string, start: number, end: number): [number, number][] {
  const cells: [number, number][] = [];
  let at = start;
  const push = (from: number, to: number) => {
    while (from < to && SPACE.test(text[from]!)) from++;
    while (to > from && SPACE.test(text[to - 1]!)) to--;
    cells.push([from, to]);
  };
  for (let k = start; k < end; k++) {
    if (text[k] === '\\') k++;
    else if (text[k] === '|') {
      push(at, k);
      at = k + 1;
    }
  }
  push(at, end);
  // The pipes at the row's edges open and close it; they have no cell outside them.
  if (cells.length > 1 && cells[0]![0] === cells[0]![1] && /^\s*\|/.test(text.slice(start, end))) cells.shift();
  if (cells.length > 1 && cells.at(-1)![0] === cells.at(-1)![1] && /\|\s*$/.test(text.slice(start, end))) cells.pop();
  return cells;
}

/** `[start, end)` of the text as inline Markdown renders it: marks dropped, the text between them kept. */
function renderInline(out: Rendering, start: number, end: number): void {
  const text = out.source;
  // Marks are sought in the span alone: a search from `start` through the rest of the text, line after line of a
  // text without marks, would be quadratic.
  const span = text.slice(start, end);
  let at = start;
  INLINE_MARK.lastIndex = 0;
  for (let mark = INLINE_MARK.exec(span); mark; mark = INLINE_MARK.exec(span)) {
    const k = start + mark.index;
    const ch = text[k]!;
    let skip = 0; // characters of a mark dropped at k
    let next = k + 1; // where the search for the next mark goes on
    if (ch === '\\') {
      if (k + 1 < end && ESCAPABLE.test(text[k + 1]!)) [skip, next] = [1, k + 2]; // the escaped character stays
    } else if (ch === '<') {
      STYLE_TAG.lastIndex = k;
      const tag = STYLE_TAG.exec(text);
      if (tag && k + tag[0].length <= end) next = k + (skip = tag[0].length);
    } else {
      let runEnd = k;
      while (runEnd < end && text[runEnd] === ch) runEnd++;
      next = runEnd;
      if (ch === '`' || isDelimiterRun(text, k, runEnd, start, end)) skip = runEnd - k;
    }
    if (skip > 0) {
      out.copy(at, k);
      at = k + skip;
    }
    INLINE_MARK.lastIndex = next - start;
  }
  out.copy(at, end);
}

/**
 * A run of `*`, `_` or `~` that opens or closes emphasis (CommonMark's flanking rules, simplified): a mask such as
 * `password: ********` has space on both sides and stays, and `_` inside a word (`DB_PASSWORD`) is no mark.
 */
function isDelimiterRun(text: string, start: number, end: number, min: number, max: number): boolean {
  const before = start > min ? text[start - 1]! : ' ';
  const after = end < max ? text[end]! : ' ';
  const left = !SPACE.test(after) && (!PUNCTUATION.test(after) || SPACE.test(before) || PUNCTUATION.test(before));
  const right = !SPACE.test(before) && (!PUNCTUATION.test(before) || SPACE.test(after) || PUNCTUATION.test(after));
  if (text[start] === '_' && WORD.test(before) && WORD.test(after)) return false;
  if (text[start] === '~' && end - start > 2) return false;
  return left || right;
}

/** The rendered text, built from copied ranges of the source and added separators, with the way back. */
class Rendering {
  private readonly parts: string[] = [];
  private length = 0;
  /** Per piece: where it starts in the rendering, and in the source (or the cell it stands before), if copied. */
  private readonly at: number[] = [];
  private readonly from: number[] = [];
  private readonly copied: boolean[] = [];
  /** Added separators and copied labels may make the rendering at most this long: linear in the source. */
  private readonly budget: number;
  readonly source: string;

  constructor(source: string) {
    this.source = source;
    this.budget = 3 * source.length + 4096;
  }

  copy(start: number, end: number): void {
    if (end <= start) return;
    const last = this.parts.length - 1;
    // Extends the last piece when it ends where this one starts (most of a text is one piece).
    if (last >= 0 && this.copied[last] && this.from[last]! + this.parts[last]!.length === start) {
      this.parts[last] += this.source.slice(start, end);
      this.length += end - start;
    } else this.push(this.source.slice(start, end), start, true);
  }

  /** A separator standing before the source's character `before` (it maps to an empty range there). */
  add(separator: string, before: number): void {
    this.push(separator, before, false);
  }

  withinBudget(): boolean {
    return this.length < this.budget;
  }

  text(): string {
    return this.parts.join('');
  }

  map(): EscapeMap {
    const { at, from, copied } = this;
    return {
      source(position) {
        let lo = 0;
        let hi = at.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (at[mid]! <= position) lo = mid;
          else hi = mid - 1;
        }
        if (!copied[lo]) return { start: from[lo]!, end: from[lo]! };
        const s = from[lo]! + (position - at[lo]!);
        return { start: s, end: s + 1 };
      },
    };
  }

  private push(part: string, from: number, copied: boolean): void {
    this.parts.push(part);
    this.at.push(this.length);
    this.from.push(from);
    this.copied.push(copied);
    this.length += part.length;
  }
}
