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
import { type EscapeMap, type Reading, lastStartAtOrBefore } from './readings.ts';

/** In place of lines left out: NUL ends every pattern's character class, and newlines end a value. */
const GAP = '\n\0\n';
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
/** A word for a password (see PROSE_PREFILTER_SOURCES): a table header naming one, a line to render. */
const PASSWORD_WORD_SOURCE =
  'pass(?:word|wd|phrase|code)?|\\bpwd?\\b|\\bpin\\b|비밀\\s?번호|암호|패스워드|パスワード|暗証番号|密码|密碼|口令|contrase|senha|mot de passe|passwort|kennwort|пароль|wachtwoord|has[łl]o|parola|[şs]ifre|kata sandi|m[ậa]t kh[ẩa]u|पासवर्ड';
const PASSWORD_WORD = new RegExp(PASSWORD_WORD_SOURCE, 'gi');
const PASSWORD_HEADER = new RegExp(PASSWORD_WORD_SOURCE, 'i');
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
 * The rendered reading of `reading`, or `undefined` when rendering changes nothing there. It holds only the lines
 * near a word for a password (see `windowsNearWords`), each run of text left out written as a gap no pattern
 * matches across. Its `escapes` map each of its characters to the character of `reading` it shows; the separators
 * a table row is written with, and the gaps, map to nothing (an empty range where they stand).
 */
export function renderedReading(reading: Reading): Reading | undefined {
  const text = reading.text;
  if (!MARKUP.test(text)) return undefined;
  const out = new Rendering(text);
  const lines = lineRanges(text);
  const near = windowsNearWords(text);
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const [start, end] = lines[i]!;
    const line = text.slice(start, end);
    let shown = near.touches(start, end);
    if (fence !== undefined) {
      if (line.trimStart().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') fence = undefined; // dropped
      else if (shown) out.copy(start, end);
    } else if (FENCE.test(line)) {
      fence = FENCE.exec(line)![1]; // dropped
    } else if (line.includes('|') && i + 1 < lines.length && DELIMITER_ROW.test(text.slice(...lines[i + 1]!)) && !isBlank(line)) {
      const last = tableEnd(text, lines, i);
      shown = near.touches(start, lines[last]![1]);
      if (shown) renderTable(out, lines, i, last);
      i = last;
    } else if (shown && /^\s*\|.*\|\s*$/.test(line)) {
      renderRow(out, cellsOf(text, start, end), undefined);
    } else if (shown) {
      // Only the parts of a line near a word: a minified bundle or a JSON document is one long line.
      let at = start;
      near.each(start, end, (from, to) => {
        if (from > at) out.gap(from);
        renderInline(out, from, to);
        at = to;
      });
      if (at < end) out.gap(end);
    }
    const lineEnd = lines[i]![1]; // a table's last line, after renderTable
    if (!shown) out.gap(lineEnd + 1);
    else if (lineEnd < text.length) out.copy(lineEnd, lineEnd + 1); // the line's own newline
  }
  return out.changed() ? { text: out.text(), parent: reading, layer: 'rendered', escapes: out.map() } : undefined;
}

/** Characters before a word for a password, and after it, that a match can span ("password for the FTP account is **X**"). */
const BEFORE_WORD = 120;
const AFTER_WORD = 300;

/** The parts of a text near a word for a password: only there can a prose rule match. */
interface Windows {
  /** True when `[start, end)` overlaps a window. */
  touches(start: number, end: number): boolean;
  /** Calls `part` with each window's overlap with `[start, end)`, in order; calls for later ranges must not go back. */
  each(start: number, end: number, part: (from: number, to: number) => void): void;
}

/**
 * The windows around each word for a password, merged. The reading holds only what lies in one (whole lines, and
 * a table holding one whole), a gap in place of the rest, so code mentioning a password (type declarations,
 * bundles: 11 MB of node_modules; JSON documents on one line) is neither rendered nor scanned twice.
 */
function windowsNearWords(text: string): Windows {
  const starts: number[] = [];
  const ends: number[] = [];
  for (const word of text.matchAll(PASSWORD_WORD)) {
    const from = Math.max(0, word.index - BEFORE_WORD);
    const to = Math.min(text.length, word.index + AFTER_WORD);
    if (ends.length > 0 && from <= ends[ends.length - 1]!) ends[ends.length - 1] = to;
    else {
      starts.push(from);
      ends.push(to);
    }
  }
  let k = 0; // the first window that may still overlap what is asked next
  const seek = (start: number) => {
    while (k < ends.length && ends[k]! <= start) k++;
  };
  return {
    touches(start, end) {
      seek(start);
      return k < starts.length && starts[k]! < end;
    },
    each(start, end, part) {
      seek(start);
      for (let w = k; w < starts.length && starts[w]! < end; w++) part(Math.max(start, starts[w]!), Math.min(end, ends[w]!));
    },
  };
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

/** The index of the last line of the table whose header is line `first` (its rows run to a blank line or one without `|`). */
function tableEnd(text: string, lines: [number, number][], first: number): number {
  let i = first + 1; // the delimiter row
  while (i + 1 < lines.length) {
    const line = text.slice(...lines[i + 1]!);
    if (isBlank(line) || !line.includes('|')) break;
    i++;
  }
  return i;
}

/** Renders the table on lines `first` (its header) to `last`. */
function renderTable(out: Rendering, lines: [number, number][], first: number, last: number): void {
  const text = out.source;
  const header = cellsOf(text, ...lines[first]!);
  renderRow(out, header, undefined);
  out.copy(lines[first]![1], lines[first]![1] + 1);
  // Columns whose cells read after their header: those named for a password, short enough to copy.
  const labels = header.map(([s, e], column) =>
    column < MAX_HEADER_COLUMNS && e - s <= MAX_HEADER && PASSWORD_HEADER.test(text.slice(s, e)) ? ([s, e] as const) : undefined,
  );
  // The delimiter row (line first + 1) has no text.
  for (let i = first + 2; i <= last; i++) {
    out.copy(lines[i - 1]![1], lines[i - 1]![1] + 1);
    renderRow(out, cellsOf(text, ...lines[i]!), labels);
  }
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
  let codeOpen = 0; // backticks of the code span open, 0 outside one
  let codeClosed = false; // the backtick run at hand closed a code span
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
      if (ch === '`') {
        // A code span closes at a run of as many backticks as opened it.
        codeClosed = codeOpen === runEnd - k;
        codeOpen = codeOpen === 0 ? runEnd - k : codeClosed ? 0 : codeOpen;
      }
    }
    if (skip > 0) {
      out.copy(at, k);
      at = k + skip;
      // The value a code span or strong emphasis holds ends at its closing mark, whatever is glued after it:
      // `` `X`|.tS `` and `**X**\_4fm_` read as one identifier-like word and the password was published (property
      // tests under FC_SEED=-82212253 and -872420516). A single `*` or `_` may sit inside a password (`A*woymg0`).
      const closesSpan = ch === '`' && codeClosed;
      const closesStrong = ch !== '`' && codeOpen === 0 && skip >= 2 && k > start && !SPACE.test(text[k - 1]!);
      if ((closesSpan || closesStrong) && at < end && !SPACE.test(text[at]!) && !WORD.test(text[at]!) && out.withinBudget()) out.add(' ', at);
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
  readonly source: string;
  /** Per piece: where it starts in the rendering; where in the source (or the cell a separator stands before). */
  private readonly at: number[] = [];
  private readonly from: number[] = [];
  private readonly lengths: number[] = [];
  /** A separator's text; `undefined` for a piece copied from the source. */
  private readonly separators: (string | undefined)[] = [];
  private length = 0;
  /** The source position after the last copied character: a copy from elsewhere means something was left out. */
  private next = 0;
  private differs = false;
  /** Added separators and copied labels may make the rendering at most this long: linear in the source. */
  private readonly budget: number;

  constructor(source: string) {
    this.source = source;
    this.budget = 3 * source.length + 4096;
  }

  copy(start: number, end: number): void {
    if (end <= start) return;
    if (start !== this.next) this.differs = true;
    this.next = end;
    const last = this.at.length - 1;
    // Extends the last piece when it ends where this one starts (most of a text is one piece).
    if (last >= 0 && this.separators[last] === undefined && this.from[last]! + this.lengths[last]! === start) {
      this.lengths[last]! += end - start;
      this.length += end - start;
    } else this.push(start, end - start, undefined);
  }

  /** A separator standing before the source's character `before` (it maps to an empty range there). */
  add(separator: string, before: number): void {
    this.differs = true;
    this.push(before, separator.length, separator);
  }

  /** Source text left out, up to `resume`: one gap for a run of it. Leaving text out is no change of what is shown. */
  gap(resume: number): void {
    const last = this.at.length - 1;
    if (last < 0 || this.separators[last] !== GAP) this.push(resume, GAP.length, GAP);
    else this.from[last] = resume;
    this.next = resume;
  }

  withinBudget(): boolean {
    return this.length < this.budget;
  }

  /** False when the lines the rendering holds read as written. */
  changed(): boolean {
    return this.differs;
  }

  text(): string {
    return this.at.map((_, k) => this.separators[k] ?? this.source.slice(this.from[k], this.from[k]! + this.lengths[k]!)).join('');
  }

  map(): EscapeMap {
    const { at, from, separators } = this;
    return {
      source(position) {
        const lo = lastStartAtOrBefore(at, position);
        if (separators[lo] !== undefined) return { start: from[lo]!, end: from[lo]! };
        const s = from[lo]! + (position - at[lo]!);
        return { start: s, end: s + 1 };
      },
    };
  }

  private push(from: number, length: number, separator: string | undefined): void {
    this.at.push(this.length);
    this.from.push(from);
    this.lengths.push(length);
    this.separators.push(separator);
    this.length += length;
  }
}
