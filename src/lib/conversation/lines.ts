/**
 * The short texts a folded row of the conversation shows in place, so a reader can tell what is behind a fold
 * without opening it: a thinking block's headline, a failed call's reason, a run of system notices. Pure, no
 * `astro:*` import.
 */
import { callFailureMessage, isFailedCall, type ToolCallView } from '../turns/index.ts';
import { failureLine, shortenPaths } from '../turns/failures.ts';

/** Characters of a thinking headline or a failure line shown in a row. */
export const ROW_LINE_MAX = 160;
/** Lines of a failure message a row shows. */
export const ROW_MESSAGE_LINES = 2;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/**
 * The headline of a thinking block: Gemini opens each with a bold line (`**Analyzing Visual Elements**`), Claude
 * and GPT with a sentence ("The user wants me to …"): the bold line's words, else the first sentence, at most
 * `ROW_LINE_MAX` characters. Empty for empty thinking.
 */
export function thinkingHeadline(thinking: string | undefined): string {
  const text = (thinking ?? '').replace(/\r\n?/g, '\n').trim();
  if (text === '') return '';
  const bold = /^\*\*([^*\n]+?)\*\*\s*(?:\n|$)/.exec(text) ?? /^#{1,6}\s+([^\n]+)/.exec(text);
  if (bold?.[1]) return cut(bold[1].trim(), ROW_LINE_MAX);
  const firstLine = text.split('\n').find((l) => l.trim() !== '') ?? '';
  // Markdown emphasis and code marks go; an underscore inside a name (`test_deriv_connection`) stays.
  const plain = firstLine.replace(/\*+|`+|(?<!\w)_+|_+(?!\w)/g, '').replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?])(?:\s|$)/.exec(plain)?.[1] ?? plain;
  return cut(sentence, ROW_LINE_MAX);
}

/** Characters of a failure line a row shows (after long paths in it are cut in their middle). */
export const ROW_REASON_MAX = 240;

/**
 * A failure message as a row shows it: its first `ROW_MESSAGE_LINES` non-empty lines (the failure module puts the
 * line naming the error first, then what follows it), long paths in them cut in their middle so the reason after a
 * path stays (`shortenPaths`), each cut to `ROW_REASON_MAX`. Lines of marks only (`----`, PowerShell's `+ ~~~~`, a
 * table's `| :--- | :--- |`) say nothing. Undefined for no message.
 */
export function rowMessage(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const lines = message
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^\+?[\s|:\-=_*~^⎯─]{3,}$/.test(l));
  if (lines.length === 0) return undefined;
  return lines
    .slice(0, ROW_MESSAGE_LINES)
    .map((l) => cut(shortenPaths(l), ROW_REASON_MAX))
    .join('\n');
}

/**
 * A call's row line without the failure message its outcome line ends with (`app.js · model output error: …`): the
 * row says the reason once, on its own line under it (`rowMessage`), where it wraps rather than being cut.
 */
export function lineWithoutReason(line: string, error: string | undefined): string {
  if (!error) return line;
  const start = failureLine(error).slice(0, 24);
  const at = start === '' ? -1 : line.indexOf(` · ${start}`);
  return at > 0 ? line.slice(0, at) : line;
}

/** Characters kept at the end of a long row line when it is cut in the middle. */
export const LINE_TAIL = 18;

/**
 * A row's line as the head that may be cut and the tail that stays, so a narrow screen cuts a long command in the
 * middle and keeps how it ended (`… · exit 1`, `+12 −3`): the last ` · ` part when it is short, else the last
 * `LINE_TAIL` characters. A short line is all head.
 */
export function middleCut(line: string): [string, string] {
  if (line.length <= LINE_TAIL * 2) return [line, ''];
  const sep = line.lastIndexOf(' · ');
  if (sep > 0 && line.length - sep <= LINE_TAIL + 12) return [line.slice(0, sep), line.slice(sep)];
  return [line.slice(0, -LINE_TAIL), line.slice(-LINE_TAIL)];
}

/**
 * Why a failed call failed, as its row says it (the conversation and the failures page): the failure module's
 * message (`callFailureMessage`: for a command, the error its output names and the lines after it), its first
 * `ROW_MESSAGE_LINES` lines. Undefined for a call that did not fail.
 */
export function callRowReason(call: ToolCallView): string | undefined {
  return isFailedCall(call) ? rowMessage(callFailureMessage(call)) : undefined;
}
