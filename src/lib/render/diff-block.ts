/**
 * Antigravity's own diffs: an edit's result (CODE_ACTION, by the model's tools or by the USER in the editor) holds
 * the change as `[diff_block_start]` + unified-diff hunks + `[diff_block_end]`, the hunks with the file's real line
 * numbers and three lines of context. Shown as written, that is marker soup (`[diff_block_start] @@ -1,6 +1,6 @@`
 * on 121 pages of the real build); parsed here into the rows `diff.ts` draws, so a result reads as the coloured
 * diff its call's view shows. Pure, no `astro:*` import.
 */
import { escapeHtml } from './escape.ts';
import { renderDiffRows, unifiedDiffRows, type DiffRow } from './diff.ts';

/** The marker Antigravity opens a diff with; a text without it has no diff to draw. */
export const DIFF_BLOCK_START = '[diff_block_start]';
const DIFF_BLOCK_END = '[diff_block_end]';

/** A result's text taken apart: the text around each diff, and each diff's rows. */
export type DiffBlockPart = { kind: 'text'; text: string } | { kind: 'diff'; rows: DiffRow[]; added: number; removed: number };

/** True when `text` holds a diff block. */
export function hasDiffBlock(text: string | undefined): boolean {
  return text !== undefined && text.includes(DIFF_BLOCK_START);
}

/**
 * `text` split into plain text and diffs, in order. A block with no end marker (the transcript cut the text)
 * runs to the end of the text.
 */
export function splitDiffBlocks(text: string): DiffBlockPart[] {
  const parts: DiffBlockPart[] = [];
  let at = 0;
  while (at < text.length) {
    const start = text.indexOf(DIFF_BLOCK_START, at);
    if (start < 0) break;
    if (start > at) parts.push({ kind: 'text', text: text.slice(at, start) });
    const bodyFrom = start + DIFF_BLOCK_START.length + (text.startsWith('\r\n', start + DIFF_BLOCK_START.length) ? 2 : text[start + DIFF_BLOCK_START.length] === '\n' ? 1 : 0);
    const end = text.indexOf(DIFF_BLOCK_END, bodyFrom);
    const rows = unifiedDiffRows(text.slice(bodyFrom, end < 0 ? text.length : end));
    parts.push({ kind: 'diff', rows, added: rows.filter((r) => r.kind === 'add').length, removed: rows.filter((r) => r.kind === 'del').length });
    at = end < 0 ? text.length : end + DIFF_BLOCK_END.length;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts.filter((p) => p.kind === 'diff' || p.text.trim() !== '');
}

/**
 * A result's text as HTML: each diff block drawn as a diff table (`renderDiffRows`), the text around it as
 * preformatted text (`<pre class="tool-result-text">`, as `tool-result.ts` shows a result). Every line is kept.
 * `indexed`: leave the diffs in the search index (a result step's own page, whose text was searchable before).
 */
export function renderDiffBlocks(text: string, options: { indexed?: boolean } = {}): string {
  const ignore = options.indexed ? '' : ' data-pagefind-ignore';
  return splitDiffBlocks(text)
    .map((part) =>
      part.kind === 'diff'
        ? `<div class="code diff"${ignore}>${renderDiffRows(part.rows)}</div>`
        : `<pre class="tool-result-text">${escapeHtml(part.text.replace(/^\n+|\n+$/g, ''))}</pre>`,
    )
    .join('');
}

/** `text` without Antigravity's `[diff_block_start]` / `[diff_block_end]` lines (for a search excerpt, read as text). */
export function withoutDiffMarkers(text: string): string {
  return text.includes(DIFF_BLOCK_START) ? text.replace(/^[ \t]*\[diff_block_(?:start|end)\][ \t]*\r?\n?/gm, '') : text;
}
