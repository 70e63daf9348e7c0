/**
 * What a file change is and how many files a session changed: decided here, once, for every page, the export and
 * `/sessions.json` (the reviewer's finding: one real session read "10 files changed" in its header and "12 files"
 * on its files page, and `/audit/` said 70 while the home cards summed to 63, because the header counted only edits
 * that succeeded and the file lists every edit call). Pure: no Astro, no HTML.
 *
 * A **file change** is an edit call (`write_to_file`, `replace_file_content`, `multi_replace_file_content`) that did
 * not fail (`failures.ts` `isFailedCall`). The file lists still show a failed edit attempt, marked failed with its
 * message, but it changed nothing and no count of "files changed" includes it.
 */
import { isFailedCall } from './failures.ts';
import type { ToolCallView } from './types.ts';

/** The path a file list shows for an edit call whose target file is not in the record (changes no known file). */
export const NO_TARGET_FILE = '(no target file recorded)';

/** True when a call changed a file: an edit call that did not fail. */
export function isFileChange(call: Pick<ToolCallView, 'outcome'>): boolean {
  return call.outcome.kind === 'edit' && !isFailedCall(call);
}

/** A file list's row as far as counting goes: its path, and whether the edit failed. */
export interface FileListEntry {
  path: string;
  failed?: boolean;
}

/**
 * The files a list of edit rows changed: the distinct paths of the rows that did not fail (first-seen order).
 * Every "files changed" count over file-list rows (a session's files page, `/audit/`) is this list's length.
 */
export function changedPaths(rows: Iterable<FileListEntry>): string[] {
  const seen = new Set<string>();
  for (const r of rows) if (!r.failed && r.path !== NO_TARGET_FILE) seen.add(r.path);
  return [...seen];
}

/** The words every page uses for the count: `1 file changed`, `12 files changed`. */
export function filesChangedWords(n: number): string {
  return `${n} ${n === 1 ? 'file' : 'files'} changed`;
}

/** One sentence on what the count counts (tooltips, the export, `/about/`). */
export const FILES_CHANGED_DEFINITION =
  'Distinct files written or edited by an edit call that did not fail; failed edit attempts are listed, marked failed, and not counted.';
