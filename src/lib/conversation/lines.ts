/**
 * The short texts a folded row of the conversation shows in place, so a reader can tell what is behind a fold
 * without opening it: a thinking block's headline, a failed call's reason, a run of system notices. Pure, no
 * `astro:*` import.
 */
import type { Step } from '../brain/types.ts';
import { callFailureMessage, callOutput, isFailedCall, type ToolCallView } from '../turns/index.ts';

/** Characters of a thinking headline or a failure line shown in a row. */
export const ROW_LINE_MAX = 160;
/** Lines of a failure message a row shows (the end of an output is where it says why). */
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
 * A failure message as a row shows it: its last `ROW_MESSAGE_LINES` non-empty lines (a traceback ends with the
 * error; a harness message is one line), each cut to `ROW_LINE_MAX`. Undefined for no message.
 */
export function rowMessage(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const lines = message
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^[-=_*~^]{3,}$/.test(l));
  if (lines.length === 0) return undefined;
  return lines
    .slice(-ROW_MESSAGE_LINES)
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

/** A line naming an error: `AssertionError: …`, `error: …`, `fatal: …`, `npm ERR!`, `E   …` (pytest). */
const ERROR_LINE = /\b[A-Z]?\w*(?:Error|Exception)\b\s*[:!(]|^\s*(?:error|fatal|npm ERR!)\b|(?:^|:\s*)error(?:\[\w+\])?:|^E\s{2,}\S/i;
/** A line of a code frame a test runner or compiler quotes (`  25| expect(…)`, `> 12 | …`): code, not the reason. */
const CODE_FRAME = /^>?\s*\d+\s*\|/;
/** A line saying something failed, weaker than a named error. */
const FAILED_LINE = /\b(?:failed|failure|FAIL|cannot|can't|could not|not found|no such file|denied|refused|not recognized|timed out)\b/i;
/** Lines of an output looked through for its reason, from its end. */
const REASON_WINDOW = 40;

/**
 * Why a failed command failed, from what it printed: the last line naming an error in its last `REASON_WINDOW`
 * lines (a traceback's `UnicodeEncodeError: …`, vitest's `AssertionError: …`, not the run's closing "Duration"
 * line), else the last lines saying something failed, else its last lines; at most `ROW_MESSAGE_LINES`.
 */
export function outputReason(output: string | undefined): string | undefined {
  const lines = (output ?? '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^[-=_*~^⎯─│|]{3,}/.test(l))
    .slice(-REASON_WINDOW);
  const errorAt = lines.findLastIndex((l) => ERROR_LINE.test(l) && !CODE_FRAME.test(l));
  if (errorAt >= 0) return rowMessage(lines[errorAt]);
  const failed = lines.filter((l) => FAILED_LINE.test(l) && !CODE_FRAME.test(l));
  return rowMessage((failed.length > 0 ? failed : lines).slice(-ROW_MESSAGE_LINES).join('\n'));
}

/**
 * Why a failed call failed, as its row says it (the conversation and the failures page): for a command that exited
 * non-zero, the line of its output naming the error (`outputReason`: a test run's AssertionError rather than its
 * closing "Duration" line, which the last lines of `failureMessage` would be); else the failure module's message.
 * Undefined for a call that did not fail.
 */
export function callRowReason(call: ToolCallView, stepOf: (key: string) => Step | undefined): string | undefined {
  if (!isFailedCall(call)) return undefined;
  const exited = call.outcome.exitCode !== undefined && call.outcome.exitCode !== 0;
  return (exited ? outputReason(callOutput(call, stepOf)?.text) : undefined) ?? rowMessage(callFailureMessage(call));
}
