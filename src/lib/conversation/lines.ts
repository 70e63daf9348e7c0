/**
 * The short texts a folded row of the conversation shows in place, so a reader can tell what is behind a fold
 * without opening it: a thinking block's headline, a failed call's reason, a run of system notices. Pure, no
 * `astro:*` import.
 */
import { callFailureMessage, isFailedCall, type ToolCallView } from '../turns/index.ts';

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

/**
 * A failure message as a row shows it: its first `ROW_MESSAGE_LINES` non-empty lines (the failure module puts the
 * line naming the error first, then what follows it), each cut to `ROW_LINE_MAX`. Undefined for no message.
 */
export function rowMessage(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const lines = message
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^[-=_*~^⎯─]{3,}$/.test(l));
  if (lines.length === 0) return undefined;
  return lines
    .slice(0, ROW_MESSAGE_LINES)
    .map((l) => cut(l, ROW_LINE_MAX))
    .join('\n');
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
