/**
 * Line diffs for file edits (`replace_file_content` target → replacement) and artifact versions, with old/new
 * line numbers and +/− markers. The diff itself comes from the `diff` package (Myers, with a time limit so a huge
 * edit cannot stall the build); each side is highlighted once as a whole block (so strings and comments spanning
 * lines colour correctly) and the rows pick their lines from it.
 */
import { structuredPatch } from 'diff';
import { escapeHtml } from './escape.ts';
import { DEFAULT_MAX_LINES, highlightHead, highlightLines, resolveLanguage, splitLines } from './highlight.ts';

/** One row of a unified diff. Line numbers are 1-based and shifted by `startLine`. */
export interface DiffRow {
  kind: 'add' | 'del' | 'ctx' | 'hunk';
  oldLine?: number;
  newLine?: number;
  /** The line's text (no marker, no newline); for a hunk row, its `@@ -a,b +c,d @@` header. */
  text: string;
}

/** Options for `diffRows`. */
export interface DiffRowsOptions {
  /** Number of the first line of both texts in the file (e.g. the edit's `StartLine`). Default 1. */
  startLine?: number;
  /** Unchanged lines kept around each change. Default 3; `Infinity` keeps every line. */
  context?: number;
}

/** Options for `renderDiff`. */
export interface RenderDiffOptions extends DiffRowsOptions {
  /** Language of both texts, any fence name or alias (unknown → plain). Default plain text. */
  language?: string;
  /** Above this many lines (both sides together) nothing is highlighted; the diff is still complete. Default 5000. */
  maxHighlightedLines?: number;
  /**
   * Lines highlighted at the head of each side (the rest of the side is plain text, still complete). Default 60,
   * as for code blocks (`DEFAULT_MAX_LINES` in highlight.ts: about a screen, which is what is read).
   */
  maxHighlightedLinesPerSide?: number;
}

const DEFAULT_CONTEXT = 3;
const DEFAULT_MAX_HIGHLIGHTED_LINES = 5_000;
/** Myers is O(N·D): past this the diff gives up and shows the whole before as removed and the after as added. */
const DIFF_TIMEOUT_MS = 2_000;

/**
 * The rows of a unified diff of `before` → `after`: a `hunk` row opening each group of changes, then `ctx`, `del`
 * and `add` rows with old and new line numbers. Identical texts give no rows. Never drops a line: when the diff
 * takes too long, every old line is a `del` and every new line an `add`.
 */
export function diffRows(before: string, after: string, options: DiffRowsOptions = {}): DiffRow[] {
  const offset = Math.max(1, Math.trunc(options.startLine ?? 1)) - 1;
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  if (before === '') oldLines.length = 0;
  if (after === '') newLines.length = 0;
  const contextOption = options.context ?? DEFAULT_CONTEXT;
  const context = Number.isFinite(contextOption) ? Math.max(0, Math.trunc(contextOption)) : oldLines.length + newLines.length;
  // Both sides get a final newline so the package never emits its "\ No newline at end of file" marker lines.
  const asFile = (lines: string[]): string => (lines.length ? `${lines.join('\n')}\n` : '');
  const patch = structuredPatch('before', 'after', asFile(oldLines), asFile(newLines), undefined, undefined, {
    context,
    timeout: DIFF_TIMEOUT_MS,
  });
  const rows: DiffRow[] = [];
  if (!patch) {
    rows.push(hunkRow(offset + 1, oldLines.length, offset + 1, newLines.length));
    oldLines.forEach((text, i) => rows.push({ kind: 'del', oldLine: offset + i + 1, text }));
    newLines.forEach((text, i) => rows.push({ kind: 'add', newLine: offset + i + 1, text }));
    return rows;
  }
  for (const hunk of patch.hunks) {
    // An empty side has start 0 in a unified header; its first line is still line 1 of our numbering.
    let oldLine = offset + Math.max(1, hunk.oldStart);
    let newLine = offset + Math.max(1, hunk.newStart);
    rows.push(hunkRow(hunk.oldLines ? oldLine : oldLine - 1, hunk.oldLines, hunk.newLines ? newLine : newLine - 1, hunk.newLines));
    for (const line of hunk.lines) {
      const marker = line[0];
      const text = line.slice(1);
      if (marker === '-') rows.push({ kind: 'del', oldLine: oldLine++, text });
      else if (marker === '+') rows.push({ kind: 'add', newLine: newLine++, text });
      else if (marker === ' ') rows.push({ kind: 'ctx', oldLine: oldLine++, newLine: newLine++, text });
    }
  }
  return rows;
}

function hunkRow(oldStart: number, oldCount: number, newStart: number, newCount: number): DiffRow {
  return { kind: 'hunk', oldLine: oldStart, newLine: newStart, text: `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@` };
}

const MARKERS: Record<DiffRow['kind'], string> = { add: '+', del: '-', ctx: ' ', hunk: '' };

/**
 * `before` → `after` as a `<div class="code-block diff-block"><table class="diff">`: one row per line with old and
 * new line numbers, a +/− marker and the line highlighted in `language`. Identical texts give a single "no changes"
 * row. Inputs above `maxHighlightedLines` are diffed in full but shown as plain text.
 */
export async function renderDiff(before: string, after: string, options: RenderDiffOptions = {}): Promise<string> {
  const rows = diffRows(before, after, options);
  const offset = Math.max(1, Math.trunc(options.startLine ?? 1)) - 1;
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const maxLines = options.maxHighlightedLines ?? DEFAULT_MAX_HIGHLIGHTED_LINES;
  let language = resolveLanguage(options.language);
  if (oldLines.length + newLines.length > maxLines) language = 'text';
  const perSide = options.maxHighlightedLinesPerSide ?? DEFAULT_MAX_LINES;
  const [oldHtml, newHtml] =
    language === 'text'
      ? [oldLines.map(escapeHtml), newLines.map(escapeHtml)]
      : await Promise.all([highlightSide(before, language, perSide), highlightSide(after, language, perSide)]);
  const partial = language !== 'text' && (oldLines.length > perSide || newLines.length > perSide);

  const note = partial
    ? `<span class="code-block-divider" role="note" data-pagefind-ignore>Lines past ${perSide.toLocaleString('en-US')} of each side are not highlighted.</span>`
    : '';
  return diffTable(rows, language, note, (row) =>
    row.kind === 'add' ? newHtml[(row.newLine ?? 0) - offset - 1] : oldHtml[(row.oldLine ?? 0) - offset - 1],
  );
}

/**
 * Rows already made (`diffRows`, or a diff Antigravity wrote, `diff-block.ts`) as the same table as `renderDiff`,
 * each line as plain escaped text: the compact diffs of the conversation pages, where a highlighted line would weigh
 * ten times its text on a page of hundreds of edits. `className` is added to the outer block.
 */
export function renderDiffRows(rows: readonly DiffRow[], className = ''): string {
  return diffTable(rows, 'text', '', () => undefined, className);
}

/** The diff table: one `<tr>` per row, a line's HTML from `lineHtml` (escaped `row.text` when it gives none). */
function diffTable(rows: readonly DiffRow[], language: string, note: string, lineHtml: (row: DiffRow) => string | undefined, className = ''): string {
  const body: string[] = [];
  for (const row of rows) {
    if (row.kind === 'hunk') {
      body.push(`<tr class="diff-hunk"><td class="diff-num"></td><td class="diff-num"></td><td class="diff-marker"></td><td class="diff-code">${escapeHtml(row.text)}</td></tr>`);
      continue;
    }
    const html = lineHtml(row);
    body.push(
      `<tr class="diff-${row.kind}">` +
        `<td class="diff-num">${row.oldLine ?? ''}</td><td class="diff-num">${row.newLine ?? ''}</td>` +
        `<td class="diff-marker">${MARKERS[row.kind]}</td>` +
        `<td class="diff-code"><span class="line">${html ?? escapeHtml(row.text)}</span></td></tr>`,
    );
  }
  if (rows.length === 0) {
    body.push('<tr class="diff-same"><td class="diff-num"></td><td class="diff-num"></td><td class="diff-marker"></td><td class="diff-code">No changes.</td></tr>');
  }
  return (
    `<div class="code-block diff-block${className ? ` ${escapeHtml(className)}` : ''}" data-lang="${escapeHtml(language)}"><table class="diff">` +
    `<thead><tr><th class="diff-num" scope="col">old</th><th class="diff-num" scope="col">new</th><th class="diff-marker"></th><th class="diff-code"></th></tr></thead>` +
    `<tbody>${body.join('')}</tbody></table>${note}</div>`
  );
}

/**
 * The blocks `renderDiff(before, after, options)` passes to `highlightLines` (for the pre-highlighter, see
 * `highlight-pool.ts`): the head of each side, or nothing when the diff is shown plain.
 */
export function diffHighlightBlocks(before: string, after: string, options: RenderDiffOptions = {}): Array<{ code: string; lang: string }> {
  const language = resolveLanguage(options.language);
  if (language === 'text') return [];
  if (splitLines(before).length + splitLines(after).length > (options.maxHighlightedLines ?? DEFAULT_MAX_HIGHLIGHTED_LINES)) return [];
  const perSide = options.maxHighlightedLinesPerSide ?? DEFAULT_MAX_LINES;
  return [before, after].flatMap((text) => {
    const { headCount, headText } = highlightHead(text, language, { maxHighlightedLines: perSide });
    return headCount > 0 ? [{ code: headText, lang: language }] : [];
  });
}

/** One side's lines as HTML: its head (by `highlightHead`'s limits) highlighted, the rest escaped plain text. */
async function highlightSide(text: string, language: string, maxLines: number): Promise<string[]> {
  const { lines, headCount, headText } = highlightHead(text, language, { maxHighlightedLines: maxLines });
  if (headCount >= lines.length) return highlightLines(headText, language);
  const head = headCount > 0 ? await highlightLines(headText, language) : [];
  return [...head, ...lines.slice(headCount).map(escapeHtml)];
}

/** A diff of two versions of a Markdown artifact (shown as highlighted Markdown source, not rendered). */
export function renderTextDiff(before: string, after: string, options: Omit<RenderDiffOptions, 'language'> = {}): Promise<string> {
  return renderDiff(before, after, { ...options, language: 'markdown' });
}

const HUNK_HEAD = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * The rows of a unified diff given as text (a user's edit in a `[diff_block_start]` block): `@@` lines open hunks
 * and set the line numbers, ` `, `-`, `+` lines are context, removed and added. A line that is none of these (a
 * `<truncated N bytes>` marker where the record was cut) is kept as a hunk-style note row.
 */
export function unifiedDiffRows(text: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const raw of splitLines(text)) {
    const line = raw.replace(/\r$/, '');
    const hunk = HUNK_HEAD.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      rows.push({ kind: 'hunk', text: line });
    } else if (line.startsWith('+') && !line.startsWith('+++')) rows.push({ kind: 'add', newLine: newLine++, text: line.slice(1) });
    else if (line.startsWith('-') && !line.startsWith('---')) rows.push({ kind: 'del', oldLine: oldLine++, text: line.slice(1) });
    else if (line.startsWith(' ')) rows.push({ kind: 'ctx', oldLine: oldLine++, newLine: newLine++, text: line.slice(1) });
    else if (line !== '') rows.push({ kind: 'hunk', text: line });
  }
  return rows;
}

/** A unified diff given as text, as the same table `renderDiff` draws (plain text: no language is known). */
export function renderUnifiedDiff(text: string): string {
  return renderDiffRows(unifiedDiffRows(text));
}

/** The line-number colours of a diff, light and dark (`rrggbb`). */
export const DIFF_NUMBER_COLOURS = { light: '59636e', dark: '9198a1' } as const;
/** The row tints of a diff, as `[r, g, b, alpha]` over the block's background. */
export const DIFF_ROW_TINTS = { add: [46, 160, 67, 0.18], del: [248, 81, 73, 0.18], hunk: [84, 174, 255, 0.15] } as const;

const tint = ([r, g, b, a]: readonly [number, number, number, number]): string => `rgba(${r},${g},${b},${a})`;

/** CSS for the diff tables, to go beside `highlightThemeCss` in the site's global stylesheet. */
export const diffCss: string = [
  '.diff-block{padding:0}',
  '.diff{border-collapse:collapse;width:100%;font-family:inherit;font-size:inherit}',
  '.diff thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}',
  '.diff td{padding:0 .5em;vertical-align:top}',
  // Line numbers in the muted text colour of each theme, not faded: `opacity:.6` read 3.9:1 on white (issue 28);
  // these are AA on the plain, added and removed rows alike (test/render/highlight-contrast.test.ts).
  `.diff .diff-num{text-align:right;color:light-dark(#${DIFF_NUMBER_COLOURS.light},#${DIFF_NUMBER_COLOURS.dark});user-select:none;width:1%;white-space:nowrap}`,
  '.diff .diff-marker{user-select:none;width:1%;text-align:center}',
  '.diff .diff-code{white-space:pre;width:100%}',
  `.diff .diff-add{background:${tint(DIFF_ROW_TINTS.add)}}`,
  `.diff .diff-del{background:${tint(DIFF_ROW_TINTS.del)}}`,
  `.diff .diff-hunk{background:${tint(DIFF_ROW_TINTS.hunk)};font-style:italic}`,
].join('\n');
