/**
 * What a failure is, how many there were and what each one said: decided here, once, for every page, the export
 * and `/sessions.json` (issue 21: one real session showed 14, 32, 46, 37, 65 and 83 "failures" in six places,
 * each counting something else). Pure: no Astro, no HTML.
 *
 * Two units, never mixed:
 * - a **failed call** is a tool call whose result failed: a non-zero exit code, status ERROR, an `error` field or an
 *   ERROR_MESSAGE answering it. A result whose call is not in the record (the transcript starts after it) is still
 *   a call's result and counts, unless it is an ERROR_MESSAGE: those answer no call of their own.
 * - an **agent error** is an error step that answers no call: the model's output rejected ("model output must
 *   contain either output text or tool calls"), the model service unreachable or over capacity, a tool call the
 *   harness could not parse. The agent met it between calls, so no call failed.
 * Every error step is one or the other (a failed call's result, or an agent error), so the two add up without
 * counting anything twice; a command that exited 1 is a failed call and no error step.
 */
import type { Step } from '../brain/types.ts';
import type { Outcome, SessionTurns, ToolCallView } from './types.ts';
import { readCommandText, splitTransport } from './transport.ts';
import { exitMeaning } from './exit-codes.ts';

/** Longest message kept (characters); the step page holds the whole output. */
export const FAILURE_MESSAGE_MAX = 500;
/** Lines of a failed command's output kept as its message (its last lines: where a traceback says why). */
export const FAILURE_TAIL_LINES = 4;

/** True when the record marks a step as an error: type ERROR_MESSAGE, status ERROR, or an `error` field. */
export function isErrorStep(step: Pick<Step, 'type' | 'status' | 'error'> & Partial<Pick<Step, 'content' | 'output' | 'stepFilesOnly'>>): boolean {
  return (
    step.type === 'ERROR_MESSAGE' ||
    step.status === 'ERROR' ||
    (step.error !== undefined && step.error !== null && step.error !== '') ||
    encounteredError(step)
  );
}

const ENCOUNTERED_HEAD = 'Encountered error in step execution';

/**
 * True when the step's own text opens, past its `Created At:` / `Completed At:` lines, with Antigravity's
 * "Encountered error in step execution: …" (a step no log holds keeps it in `steps/<n>/output.txt`, real: "context
 * canceled"). Only the head is looked at: an output that quotes the sentence further down is not an error.
 */
function encounteredError(step: Partial<Pick<Step, 'content' | 'output' | 'stepFilesOnly'>>): boolean {
  const head = (text: string | undefined) => (text ? splitTransport(text.slice(0, 400)).body.trimStart().startsWith(ENCOUNTERED_HEAD) : false);
  return head(step.content) || (step.stepFilesOnly === true && head(step.output?.text));
}

/** True when a call's outcome is a failure (the one place that says which outcomes count). */
export function isFailedCall(call: Pick<ToolCallView, 'outcome'>): boolean {
  return call.outcome.status === 'failed';
}

/**
 * True when a result no call claims counts as a failed call: it failed, and it is a tool's result rather than an
 * ERROR_MESSAGE (which, unclaimed, is an agent error).
 */
export function isFailedOrphan(type: string, outcome: Pick<Outcome, 'status'>): boolean {
  return outcome.status === 'failed' && type !== 'ERROR_MESSAGE';
}

/**
 * What a step counts as: `call` when it is the result of a failed call (the call it answers failed, or it is an
 * unclaimed tool result that failed), `agent` when it is an agent error (an error step answering no call),
 * undefined otherwise. A failed call has exactly one result step, so the steps marked `call` are the failed calls.
 * `answers` is the call the step answers; `unclaimed` the step's own outcome when no call claims it.
 */
export type StepFailure = 'call' | 'agent';

export function stepFailure(
  step: Parameters<typeof isErrorStep>[0],
  answers: Pick<ToolCallView, 'outcome'> | undefined,
  unclaimed: Pick<Outcome, 'status'> | undefined,
): StepFailure | undefined {
  if (answers) return isFailedCall(answers) ? 'call' : undefined;
  if (unclaimed && isFailedOrphan(step.type, unclaimed)) return 'call';
  return isErrorStep(step) ? 'agent' : undefined;
}

/** The two counts of a session or a turn. */
export interface FailureCounts {
  /** Tool calls whose result failed (`isFailedCall`, plus unclaimed failed results: `isFailedOrphan`). */
  failedCalls: number;
  /** Error steps that answer no call (`stepFailure` → `agent`). */
  agentErrors: number;
}

/** The counts of a whole session: the sum over its turns (so the turn list adds up to the header). */
export function sessionFailureCounts(turns: Pick<SessionTurns, 'turns'>): FailureCounts {
  const total: FailureCounts = { failedCalls: 0, agentErrors: 0 };
  for (const t of turns.turns) {
    total.failedCalls += t.stats.failures;
    total.agentErrors += t.stats.agentErrors;
  }
  return total;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The words every page uses for the counts: `3 failed calls`, `1 agent error`. */
export const failureWords = {
  failedCalls: (n: number): string => plural(n, 'failed call', 'failed calls'),
  agentErrors: (n: number): string => plural(n, 'agent error', 'agent errors'),
};

/** One sentence each on what the counts count (tooltips, the export, `/about/`). */
export const FAILURE_DEFINITIONS = {
  failedCalls: 'Tool calls whose result failed: a non-zero exit code, status ERROR, an error field or an error message answering the call.',
  agentErrors: 'Errors recorded outside any tool call: the model’s output rejected, the model service unreachable or over capacity, a tool call that could not be parsed.',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// The message

/** A record's `error` field as text (a string, or an object's `message`, else its JSON). */
function errorFieldText(error: unknown): string | undefined {
  if (typeof error === 'string') return error.trim() || undefined;
  if (error !== undefined && error !== null && typeof error === 'object') {
    const m = (error as Record<string, unknown>).message;
    if (typeof m === 'string' && m.trim() !== '') return m.trim();
    return JSON.stringify(error);
  }
  if (typeof error === 'number' || typeof error === 'boolean') return String(error);
  return undefined;
}

/** The sentence at the head of a step's text (past the header): a view of a log that quotes it further down is no error. */
const ENCOUNTERED = /^\s*(Encountered error in step execution:[^\n]*(?:\n(?![ \t]*\n)[^\n]*)*)/;
const ERROR_MESSAGE_LINE = /^[ \t]*Error Message:[ \t]*(.+?)[ \t]*$/m;
const PROBLEM_PARSING = /^There was a problem parsing the tool call\.?\s*$/;

/**
 * The harness's own wording of an error, cut to what says why: an invalid tool call is written as "There was a
 * problem parsing the tool call. / Error Message: <why> / Guidance: <advice to the model> / Retries remaining: N"
 * (45 real steps), and only `<why>` differs between them; a content of "Error: <why>" loses its label.
 */
function harnessMessage(text: string): string {
  const t = text.replace(/\r\n?/g, '\n').trim();
  const why = ERROR_MESSAGE_LINE.exec(t)?.[1];
  if (why) return why;
  const first = t.replace(/^Error(?: invalid tool call)?:?[ \t]*/, '');
  if (PROBLEM_PARSING.test(first)) return first;
  return first.replace(/\n[ \t]*Guidance:[\s\S]*$/, '').trim();
}

/** The last `n` non-empty lines of `text`. */
function lastLines(text: string, n: number): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n').map((l) => l.replace(/\s+$/, '')).filter((l) => l.trim() !== '');
  return lines.slice(-n).join('\n');
}

/** A line that names an error: `AssertionError: …`, `ModuleNotFoundError: …`, `error: …`, `fatal: …`, `npm ERR! …`. */
const ERROR_LINE = /(?:^|[\s.(])[A-Z]?\w*(?:Error|Exception)\b\s*(?:\[[^\]]*\])?:|^\s*(?:error|fatal|ERROR|FATAL)\b\s*[:\[]|^\s*npm ERR!/;

/**
 * The last error an output names, with the lines after it (up to `FAILURE_TAIL_LINES` in all): a test runner ends
 * with its summary ("Tests 1 failed | 1 passed", a duration), the reason is above it ("AssertionError: expected …").
 * Undefined when no line names an error (then the last lines say most).
 */
function errorLines(text: string): string | undefined {
  const lines = text.replace(/\r\n?/g, '\n').split('\n').map((l) => l.replace(/\s+$/, '')).filter((l) => l.trim() !== '');
  for (let i = lines.length - 1; i >= 0 && i >= lines.length - 60; i--) {
    if (!ERROR_LINE.test(lines[i] as string)) continue;
    // A run of error lines says it together ("error: cannot pull with rebase: …" / "error: Please commit …").
    let from = i;
    while (from > 0 && i - from < FAILURE_TAIL_LINES - 1 && ERROR_LINE.test(lines[from - 1] as string)) from--;
    // Lines of brackets and commas (the end of a JSON error body) say nothing.
    return lines.slice(from, from + FAILURE_TAIL_LINES).filter((l) => /[\p{L}\p{N}]/u.test(l)).join('\n').trim();
  }
  return undefined;
}

/** `text` cut to `max` characters from its end (the end of an output is where it says why). */
function keepEnd(text: string, max: number): string {
  return text.length > max ? `…${text.slice(text.length - max + 1)}` : text;
}

function keepStart(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The line the transcript puts where it cut an output short (the whole is in `steps/<n>/output.txt`). */
const CUT_MARK = /\n?\[\.\.\. [^\]\n]* more, see output\.txt\][ \t]*\n?\s*$/;

/**
 * What a failed command printed last: stderr's last lines when it has any, else the output's; from the step's
 * `output.txt` when the transcript cut the output short (its end, where the reason is, is only in the file).
 */
function commandMessage(body: string, file: Step['output']): string | undefined {
  const cmd = readCommandText(body);
  if (cmd.state !== 'done' || cmd.exitCode === undefined || cmd.exitCode === 0) return undefined;
  const cutShort = CUT_MARK.test(cmd.output);
  return outputFailureMessage(cutShort && file && !file.duplicateOfContent ? file.text : cmd.output.replace(CUT_MARK, ''));
}

/**
 * Why a command failed, from what it printed: the last error it names with the lines after it, else its last
 * lines. Used for a command's result and for a background command's final output (its task's end).
 */
export function outputFailureMessage(output: string): string | undefined {
  // The task-finished message ends with where its log is; that says nothing about why.
  const out = output.replace(/^Log: file:\/\/\S*[ \t]*$/gm, '');
  // "Stdout:" / "Stderr:" blocks (either may be empty): stderr says why when it says anything.
  const stderr = /(?:^|\n)[ \t]*Stderr:[ \t]*(?:\r?\n([\s\S]*))?$/.exec(out);
  const stdout = /(?:^|\n)[ \t]*Stdout:[ \t]*(?:\r?\n([\s\S]*?))?(?=\n[ \t]*Stderr:|$)/.exec(out);
  const printed = stderr?.[1]?.trim() ? stderr[1] : stdout || stderr ? (stdout?.[1] ?? '') : out;
  const tail = powerShellError(printed) ?? errorLines(printed) ?? lastLines(printed, FAILURE_TAIL_LINES);
  return tail ? keepEnd(tail, FAILURE_MESSAGE_MAX) : undefined;
}

/** A line PowerShell writes under a command it echoes: the command (`+ npm install`) or its marker (`+ ~~~`). */
const PS_ECHO = /^\s*\+/;
const PS_CATEGORY = /^\s*\+ CategoryInfo\s*:\s*(.*)$/;
const PS_ERROR_ID = /^\s*\+ FullyQualifiedErrorId\s*:\s*(.*)$/;

/**
 * A PowerShell error record's own words: its lines other than the location line (`At line:1 char:1`, written in
 * the user's language: `En línea: 1 Carácter: 1`) and the `+ …` lines (the command echoed, its `~~~` marker,
 * CategoryInfo). The message stands before the location (`npm : …`) or, for a parser error, after the marker
 * ("The token '&&' is not a valid statement separator"); a record cut down to its `+` lines says its
 * `FullyQualifiedErrorId` and category instead, never only the marker. The last record when there are several
 * (real: `node : …` then `npm : …`, 0043a8fc; a Spanish `godot : …`, 3adf6725).
 */
function powerShellError(text: string): string | undefined {
  const lines = text.replace(/\r\n?/g, '\n').split('\n').map((l) => l.replace(/\s+$/, ''));
  const category = lines.findLastIndex((l) => PS_CATEGORY.test(l));
  if (category < 0) return undefined;
  // The record runs back to a blank line or the end of the record before it.
  let start = category;
  while (start > 0 && (lines[start - 1] as string).trim() !== '' && !PS_ERROR_ID.test(lines[start - 1] as string)) start--;
  const block = lines.slice(start, category);
  const words = block.filter((l, i) => {
    if (PS_ECHO.test(l) || l.trim() === '') return false;
    // The location line is the one the echoed command follows.
    const next = block[i + 1];
    return !(next !== undefined && PS_ECHO.test(next) && /\d/.test(l) && l.length <= 80);
  });
  if (words.length > 0) return words.join('\n');
  const id = lines.slice(category + 1).map((l) => PS_ERROR_ID.exec(l)?.[1]).find((v) => v !== undefined);
  const what = PS_CATEGORY.exec(lines[category] as string)?.[1];
  return [id ? `FullyQualifiedErrorId: ${id}` : undefined, what ? `CategoryInfo: ${what}` : undefined].filter(Boolean).join('\n') || undefined;
}

/**
 * Why a step failed, in the words Antigravity wrote, from where it writes them: past the `Created At:` /
 * `Completed At:` header of a step's output ("Encountered error in step execution: …"), the record's `error` field
 * (the harness's "Error Message:" line of an invalid tool call), an ERROR_MESSAGE's "Error: …" text, or for a
 * command that exited non-zero the last lines of its stderr (else of its output). Undefined when the step says
 * nothing (a command that failed in silence), so a page can say that instead of repeating "failed".
 * At most `FAILURE_MESSAGE_MAX` characters; may hold line breaks (a traceback's last lines).
 */
export function failureMessage(step: Pick<Step, 'type' | 'status' | 'error' | 'content' | 'exitCode' | 'output'> & Partial<Pick<Step, 'stepFilesOnly'>>): string | undefined {
  const { body } = step.content ? splitTransport(step.content) : { body: '' };
  const encountered = ENCOUNTERED.exec(body)?.[1] ?? (step.stepFilesOnly && step.output ? ENCOUNTERED.exec(splitTransport(step.output.text).body)?.[1] : undefined);
  if (encountered) return keepStart(encountered.trim(), FAILURE_MESSAGE_MAX);
  const given = errorFieldText(step.error);
  if (given) return keepStart(harnessMessage(given), FAILURE_MESSAGE_MAX);
  if (step.type === 'ERROR_MESSAGE') {
    const text = harnessMessage(body);
    return text ? keepStart(text, FAILURE_MESSAGE_MAX) : undefined;
  }
  const fromCommand = commandMessage(body, step.output);
  if (fromCommand) return fromCommand;
  if (step.status === 'ERROR') {
    const text = body.trim();
    return text ? keepStart(harnessMessage(text), FAILURE_MESSAGE_MAX) : undefined;
  }
  return undefined;
}

/** Longest path a failure line keeps whole; a longer one is cut in its middle (`shortenPaths`). */
export const PATH_IN_LINE_MAX = 48;

/**
 * A path: a drive or a slash, then folders (a folder's name may hold single spaces, "DATA ENG. OLA", when a
 * separator follows it), then a last name without spaces.
 */
const PATH = /(?:\b[A-Za-z]:|(?<![\w.:/])~?)[\\/](?:[^\\/\s:"'<>|*?]+(?: [^\\/\s:"'<>|*?]+)*[\\/])+[^\\/\s:"'<>|*?,;()]*/g;

/**
 * Long paths in `text` cut in their middle, keeping where they start and the file they name, so the words after a
 * path (the reason: "…/run_autonomous_scanner.py: The system cannot find the file specified.") stay in a line
 * (issue 28: 70 of 328 real failure lines were cut inside a path, before their reason).
 */
export function shortenPaths(text: string, max = PATH_IN_LINE_MAX): string {
  return text.replace(PATH, (path) => {
    if (path.length <= max) return path;
    const tail = Math.ceil(max * 0.55);
    return `${path.slice(0, max - tail - 1)}…${path.slice(path.length - tail)}`;
  });
}

/**
 * True when `text` holds characters that were already unreadable in the record: U+FFFD replacement characters (text
 * in a legacy code page read as UTF-8: real 0043a8fc's Korean PowerShell error, 3adf6725's Spanish one) or UTF-8
 * read as Latin-1 (`Ã©`, `â€™`). Pages show such text as it is, with a note saying so.
 */
export function looksGarbled(text: string): boolean {
  return /\uFFFD/.test(text) || /Ã[\u0080-\u00BF]|â€[\u0080-\u00BF™œž]|Â[\u00A0-\u00BF]/.test(text);
}

/** What the note beside garbled text says. */
export const GARBLED_NOTE = 'The unreadable characters are in the session’s own record (text in another encoding, read as UTF-8); shown as recorded.';

/**
 * A message on one line (tables, titles, a call's line): line breaks become ` · `, runs of spaces one space, long
 * paths cut in their middle (`shortenPaths`), then the end cut when still longer than `max`.
 */
export function failureLine(message: string, max = 200): string {
  const line = message
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^\+?\s*[~^]{3,}$/.test(l))
    .join(' · ')
    .replace(/\s+/g, ' ');
  return keepStart(shortenPaths(line), max);
}

/**
 * The message a failed call shows: its outcome's message (`failureMessage` of its result), else what its exit code
 * says: a command that printed nothing, or one that went on in the background (its output is in its task log).
 */
export function callFailureMessage(call: Pick<ToolCallView, 'outcome'>): string | undefined {
  if (!isFailedCall(call)) return undefined;
  if (call.outcome.error) return call.outcome.error;
  const exit = call.outcome.exitCode;
  if (exit === undefined) return undefined;
  const meaning = exitMeaning(exit);
  const code = `exit code ${exit}${meaning ? ` (${meaning})` : ''}`;
  return call.outcome.background ? `${code} (in the background; its output is in its task log)` : `${code}, no output`;
}
