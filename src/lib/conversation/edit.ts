/**
 * What an edit changed, as the conversation shows it in place: the model's reason (`Description`, else its
 * `Instruction`), then a compact diff (a few lines of context, at most `EDIT_ROWS_MAX` rows, the rest on the step
 * page). The diff comes from the call's arguments when they are whole (the same diff the step page draws), else
 * from the diff Antigravity wrote in the result (`[diff_block_start]`, with the file's real line numbers); a new
 * file written with `write_to_file` shows its first lines. Bounded like everything in `preview.ts`, so a page's
 * weight is known before it is rendered. Pure, no `astro:*` import.
 */
import type { ToolCall } from '../brain/types.ts';
import { diffRows, type DiffRow } from '../render/diff.ts';
import { splitDiffBlocks } from '../render/diff-block.ts';

/** Rows of diff shown in place (hunk headers included); the step page holds the rest. */
export const EDIT_ROWS_MAX = 14;
/** Unchanged lines kept around a change in place (the step page keeps three). */
export const EDIT_CONTEXT = 2;
/** Characters of the model's reason shown in place. */
export const EDIT_WHY_MAX = 300;
/** Characters of one diff line kept in place (a minified line would otherwise weigh a whole page). */
const LINE_MAX = 240;

/** The tools whose call edits a file. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['replace_file_content', 'multi_replace_file_content', 'write_to_file']);

/** An edit as the conversation shows it. */
export interface EditPreview {
  /** The model's reason for the edit, one paragraph, cut to `EDIT_WHY_MAX`. */
  why?: string;
  /** The rows shown (at most `EDIT_ROWS_MAX`). */
  rows: DiffRow[];
  /** Rows of the whole diff (shown and not). */
  totalRows: number;
  /** `new-file`: a write_to_file of a file that did not exist (its head, all added); `diff`: a change. */
  shape: 'diff' | 'new-file';
  /** Where the rows came from: the call's arguments or the diff in its result. */
  from: 'args' | 'result';
  /** Lines of a new file (for "first N of M lines"). */
  fileLines?: number;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return undefined;
  return typeof value === 'object' ? undefined : String(value);
}

function positive(value: unknown): number | undefined {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? Math.trunc(n) : undefined;
}

/** The model's reason for the edit, on one line: its Description, else its Instruction. */
export function editReason(args: Record<string, unknown>): string | undefined {
  const raw = text(args.Description)?.trim() || text(args.Instruction)?.trim();
  if (!raw) return undefined;
  const flat = raw.replace(/\s+/g, ' ');
  return flat.length > EDIT_WHY_MAX ? `${flat.slice(0, EDIT_WHY_MAX - 1)}…` : flat;
}

const cutLine = (row: DiffRow): DiffRow => (row.text.length > LINE_MAX ? { ...row, text: `${row.text.slice(0, LINE_MAX - 1)}…` } : row);

/** The whole diff an edit's arguments describe, or undefined when they are cut or missing. */
function argsDiff(call: ToolCall): { rows: DiffRow[]; shape: EditPreview['shape']; fileLines?: number } | undefined {
  const args = call.args;
  if (call.name === 'replace_file_content') {
    if (call.truncatedArgs.some((a) => a === 'TargetContent' || a === 'ReplacementContent')) return undefined;
    const before = text(args.TargetContent);
    const after = text(args.ReplacementContent);
    if (before === undefined || after === undefined) return undefined;
    return { rows: diffRows(before, after, { startLine: positive(args.StartLine), context: EDIT_CONTEXT }), shape: 'diff' };
  }
  if (call.name === 'multi_replace_file_content') {
    const chunks = args.ReplacementChunks;
    if (call.truncatedArgs.includes('ReplacementChunks') || !Array.isArray(chunks)) return undefined;
    const rows: DiffRow[] = [];
    for (const chunk of chunks) {
      const c = (typeof chunk === 'object' && chunk !== null ? chunk : {}) as Record<string, unknown>;
      const before = text(c.TargetContent);
      const after = text(c.ReplacementContent);
      if (before === undefined || after === undefined) return undefined;
      rows.push(...diffRows(before, after, { startLine: positive(c.StartLine), context: EDIT_CONTEXT }));
    }
    return { rows, shape: 'diff' };
  }
  if (call.name === 'write_to_file') {
    if (call.truncatedArgs.includes('CodeContent')) return undefined;
    const content = text(args.CodeContent);
    if (content === undefined) return undefined;
    // A new file's head as added lines, numbered from 1 (its whole length is counted, only the head is kept).
    const lines = content === '' ? [] : content.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
    return {
      rows: lines.slice(0, EDIT_ROWS_MAX + 1).map((line, i) => ({ kind: 'add', newLine: i + 1, text: line })),
      shape: 'new-file',
      fileLines: lines.length,
    };
  }
  return undefined;
}

/** The diff written in a result's text, when it holds one. */
function resultDiff(resultText: string | undefined): DiffRow[] | undefined {
  if (!resultText?.includes('[diff_block_start]')) return undefined;
  const rows = splitDiffBlocks(resultText).flatMap((p) => (p.kind === 'diff' ? p.rows : []));
  return rows.length > 0 ? rows : undefined;
}

/**
 * The compact view of an edit call (`replace_file_content`, `multi_replace_file_content`, `write_to_file`), or
 * undefined for any other call or when neither its arguments nor its result hold a change. An overwrite shows the
 * diff of its result when the result has one (what changed), else the head of what was written.
 */
export function editPreview(call: ToolCall | undefined, resultText?: string): EditPreview | undefined {
  if (!call || !EDIT_TOOLS.has(call.name)) return undefined;
  const overwrite = call.name === 'write_to_file' && (call.args.Overwrite === true || call.args.Overwrite === 'true' || call.args.Overwrite === 'True');
  const fromResult = resultDiff(resultText);
  const fromArgs = overwrite && fromResult ? undefined : argsDiff(call);
  const chosen = fromArgs ?? (fromResult ? { rows: fromResult, shape: 'diff' as const } : undefined);
  if (!chosen) return undefined;
  const total = chosen.shape === 'new-file' ? (chosen.fileLines ?? chosen.rows.length) : chosen.rows.length;
  return {
    why: editReason(call.args),
    rows: chosen.rows.slice(0, EDIT_ROWS_MAX).map(cutLine),
    totalRows: total,
    shape: chosen.shape,
    from: fromArgs ? 'args' : 'result',
    fileLines: chosen.shape === 'new-file' ? chosen.fileLines : undefined,
  };
}

/** The compact view of a result with no call (a USER's own edit in the editor): its diff, bounded. */
export function resultEditPreview(resultText: string | undefined): EditPreview | undefined {
  const rows = resultDiff(resultText);
  if (!rows) return undefined;
  return { rows: rows.slice(0, EDIT_ROWS_MAX).map(cutLine), totalRows: rows.length, shape: 'diff', from: 'result' };
}

/** Estimated HTML bytes of an edit's compact view (for `pages.ts`): a diff row's markup is ~170 bytes besides its text. */
export function editPreviewWeight(preview: EditPreview | undefined): number {
  if (!preview) return 0;
  return 600 + (preview.why?.length ?? 0) * 1.15 + preview.rows.reduce((n, r) => n + 170 + r.text.length * 1.15, 0);
}
