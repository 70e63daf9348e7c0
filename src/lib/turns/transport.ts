/**
 * Antigravity's transport text around a tool's result, taken apart. Every result step's content starts with
 * `Created At: <time>` (and `Completed At: <time>` once it ended: 10,181 real timeline rows showed that first
 * line and nothing else); a command's output then sits under "The command completed successfully. Output:"
 * (or "exited with code N.", or "failed with exit code: N" with Stdout/Stderr blocks, all indented by tabs); a
 * viewed file comes with its path, sizes and a note on the line numbers. Pages show the body; the times and the
 * exit code become metadata.
 */

/** A result's text split into its header times and the body a reader wants. */
export interface Transport {
  createdAt?: string;
  completedAt?: string;
  /** The text after the header lines (untouched otherwise). */
  body: string;
}

const CREATED = /^Created At: *(\S+)[ \t]*\r?\n?/;
const COMPLETED = /^Completed At: *(\S+)[ \t]*\r?\n?/;

/** Split the `Created At / Completed At` header off a result's text. */
export function splitTransport(text: string): Transport {
  let body = text;
  const created = CREATED.exec(body);
  if (!created) return { body: text };
  body = body.slice(created[0].length);
  const completed = COMPLETED.exec(body);
  if (completed) body = body.slice(completed[0].length);
  return { createdAt: created[1], completedAt: completed?.[1], body };
}

/** How a command's result reads once the header is gone. */
export interface CommandText {
  state: 'done' | 'running' | 'cancelled' | 'unknown';
  exitCode?: number;
  /** Background task id (`<session>/task-N`) when the command went on in the background. */
  taskId?: string;
  /** What the command printed, with the transport sentences and their tab indent removed. */
  output: string;
}

const SUCCESS = /^\s*The command completed successfully\.[ \t]*\r?\n?/;
const EXITED = /^\s*The command (?:exited with code|failed with exit code:?) *(-?\d+)\.?[ \t]*\r?\n?/;
const CANCELLED = /^\s*Step was canceled[^\n]*\r?\n?/;
/** "Output:" and the tabs Antigravity indents with (tabs only: a first output line that starts with a space keeps it, as `git diff --stat` needs). */
const OUTPUT_LABEL = /^\s*Output(?: so far)?:[ \t]*\r?\n?\t*/;
const TASK_ID = /task id: *([^\s"\\]+\/task-\d+|task-\d+)/;
const TASK_LOG_LINE = /^Task logs are available at:.*$/m;

/** Undo the tab indent Antigravity puts before its own sentences and the first output line. */
function dedentTransport(text: string): string {
  if (!text.includes('Stdout:') && !text.includes('Stderr:')) return text.replace(/^\n+/, '');
  return text.replace(/^\n+/, '').replace(/^[ \t]+(Stdout:|Stderr:)/gm, '$1').replace(/^(Stdout:|Stderr:)\r?\n[ \t]+/gm, '$1\n');
}

/** Read a command result's body (after `splitTransport`). */
export function readCommandText(body: string): CommandText {
  const running = /^\s*Tool is running as a background task/.test(body);
  if (running) {
    const taskId = TASK_ID.exec(body)?.[1];
    return { state: 'running', taskId, output: body.replace(TASK_LOG_LINE, '').trim() };
  }
  const cancelled = CANCELLED.exec(body);
  if (cancelled) {
    const rest = body.slice(cancelled[0].length);
    return { state: 'cancelled', output: dedentTransport(rest.replace(OUTPUT_LABEL, '')) };
  }
  const success = SUCCESS.exec(body);
  const exited = success ? undefined : EXITED.exec(body);
  if (!success && !exited) return { state: 'unknown', output: body };
  const rest = body.slice((success ?? exited)?.[0].length ?? 0);
  return {
    state: 'done',
    exitCode: success ? 0 : Number(exited?.[1]),
    output: dedentTransport(rest.replace(OUTPUT_LABEL, '')),
  };
}

/** The header of a viewed file, and its numbered lines without the note on how they are numbered. */
export interface ViewText {
  path?: string;
  totalLines?: number;
  from?: number;
  to?: number;
  /** The numbered lines (`N: text`) and anything after them. */
  body: string;
}

const VIEW_PATH = /^File Path: `(?:file:\/\/)?([^`]*)`[ \t]*\r?\n?/m;
const VIEW_TOTAL = /^Total Lines: *(\d+)[ \t]*\r?\n?/m;
const VIEW_BYTES = /^Total Bytes: *\d+[ \t]*\r?\n?/m;
const VIEW_SHOWING = /^Showing lines (\d+) to (\d+)[ \t]*\r?\n?/m;
const VIEW_NOTE = /^The following code has been modified to include a line number before every line[^\n]*\r?\n?/m;

/** Decode a `file://` path's percent escapes; keep it as written when it is not valid escaping. */
export function decodeFilePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Read a view_file result's body (after `splitTransport`). */
export function readViewText(body: string): ViewText {
  // The header lines sit at the top; looking for them through a whole viewed file was a measured cost.
  const top = body.slice(0, 8192);
  const path = VIEW_PATH.exec(top)?.[1];
  const total = VIEW_TOTAL.exec(top)?.[1];
  const showing = VIEW_SHOWING.exec(top);
  const rest = top.replace(VIEW_PATH, '').replace(VIEW_TOTAL, '').replace(VIEW_BYTES, '').replace(VIEW_SHOWING, '').replace(VIEW_NOTE, '') + body.slice(top.length);
  return {
    path: path !== undefined ? decodeFilePath(path) : undefined,
    totalLines: total !== undefined ? Number(total) : undefined,
    from: showing ? Number(showing[1]) : undefined,
    to: showing ? Number(showing[2]) : undefined,
    body: rest,
  };
}

const EDIT_HEAD = /^The following changes were made by the \S+ tool to: (.+?)\. If relevant, proactively run terminal commands[^\n]*\r?\n?/m;
const CREATED_FILE = /^Created file (?:file:\/\/)?(.+?) with requested content\.[ \t]*\r?\n?/m;
const PROACTIVE = /^If relevant, proactively run terminal commands to execute this code for the USER\. Don't ask for permission\.[ \t]*\r?\n?/m;
const DIFF_BLOCK = /\[diff_block_start\]\r?\n([\s\S]*?)\[diff_block_end\]/g;

/** An edit result: the path it names and the lines its diff adds and removes. */
export interface EditText {
  path?: string;
  created: boolean;
  added: number;
  removed: number;
  /** True when the text held a diff (added/removed counted from it). */
  hasDiff: boolean;
  /** The text without the boilerplate sentences. */
  body: string;
}

/** Read an edit result's body (replace_file_content, multi_replace_file_content, write_to_file). */
export function readEditText(body: string): EditText {
  // The sentences sit at the top; matching them over a whole written file was a measured cost.
  const top = body.slice(0, 4096);
  const head = EDIT_HEAD.exec(top);
  const created = CREATED_FILE.exec(top);
  let added = 0;
  let removed = 0;
  let hasDiff = false;
  for (const m of body.includes('[diff_block_start]') ? body.matchAll(DIFF_BLOCK) : []) {
    hasDiff = true;
    for (const line of (m[1] ?? '').split('\n')) {
      if (line.startsWith('+++') || line.startsWith('---')) continue;
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  const path = head?.[1] ?? created?.[1];
  return {
    path: path !== undefined ? decodeFilePath(path) : undefined,
    created: created !== null,
    added,
    removed,
    hasDiff,
    body: (top.replace(EDIT_HEAD, '').replace(CREATED_FILE, '').replace(PROACTIVE, '') + body.slice(top.length)).replace(/^\n+/, ''),
  };
}

/**
 * The text of a result as a reader should see it: the header times gone, a command's transport sentences gone,
 * a viewed file's header and line-number note gone, an edit's boilerplate gone. `type` is the result step's type
 * and `tool` the name of the call it answers (jetski records every result as GENERIC, so the tool decides).
 */
export function displayBody(content: string, tool: string | undefined, type: string): string {
  const { body } = splitTransport(content);
  if (tool === 'run_command' || type === 'RUN_COMMAND') {
    const cmd = readCommandText(body);
    return cmd.state === 'unknown' ? body : cmd.output;
  }
  if (tool === 'view_file' || type === 'VIEW_FILE') return readViewText(body).body;
  if (tool === 'write_to_file' || tool === 'replace_file_content' || tool === 'multi_replace_file_content' || type === 'CODE_ACTION')
    return readEditText(body).body;
  return body;
}

/**
 * What the user did in their editor, as a `USER_EXPLICIT` record other than a USER_INPUT says it (overview.txt of
 * versions before about late May 2026, real-eras b1966f3f): `VIEW_FILE` "The USER performed the following action:
 * Show the contents of file …" with the numbered lines, `CODE_ACTION` "The following changes were made by the
 * USER to: <path>." with the edit as a `[diff_block_start]` unified diff (cut off, marker and all, when long).
 */
export interface UserActionText {
  action: 'view-file' | 'edit' | 'other';
  path?: string;
  /** Lines shown, for a view (1-based, inclusive) and the file's total when stated. */
  lines?: { from: number; to: number; total?: number };
  /** The viewed lines, the edit's unified diff (without its markers), or the whole content for another action. */
  text: string;
  /** Lines the edit adds and removes (from its diff). */
  added?: number;
  removed?: number;
}

const USER_ACTION_HEAD = /^The USER performed the following action:[ \t]*\r?\n?/;
/** Names the file as the user's system writes it (`c:\\Users\\…`), where `File Path:` has a `file:///c:/…` URL. */
const USER_VIEW_LINE = /^Show the contents of file (.+?)(?: from lines \d+ to \d+)?[ \t]*\r?$\n?/m;
const USER_EDIT_HEAD = /^The following changes were made by the USER to: (.+?)\. If relevant, proactively run terminal commands[^\n]*\r?\n?/;
const DIFF_START = '[diff_block_start]';

/** Read a user's own action (`type` VIEW_FILE, CODE_ACTION, or another) from its content. */
export function readUserAction(type: string, content: string | undefined): UserActionText {
  const text = content ?? '';
  if (type === 'VIEW_FILE') {
    const named = USER_VIEW_LINE.exec(text.slice(0, 4096))?.[1];
    const view = readViewText(text.replace(USER_ACTION_HEAD, '').replace(USER_VIEW_LINE, ''));
    const out: UserActionText = { action: 'view-file', text: view.body.replace(/^\n+/, '') };
    const path = named ?? view.path;
    if (path !== undefined) out.path = path;
    if (view.from !== undefined && view.to !== undefined) {
      out.lines = { from: view.from, to: view.to };
      if (view.totalLines !== undefined) out.lines.total = view.totalLines;
    }
    return out;
  }
  if (type === 'CODE_ACTION') {
    const head = USER_EDIT_HEAD.exec(text);
    const start = text.indexOf(DIFF_START);
    const end = text.indexOf('[diff_block_end]', start);
    const diff = start < 0 ? text.slice(head?.[0].length ?? 0) : text.slice(start + DIFF_START.length, end < 0 ? undefined : end).replace(/^\r?\n/, '');
    let added = 0;
    let removed = 0;
    for (const line of diff.split('\n')) {
      if (line.startsWith('+++') || line.startsWith('---')) continue;
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
    const out: UserActionText = { action: 'edit', text: diff.replace(/\s+$/, ''), added, removed };
    if (head?.[1] !== undefined) out.path = decodeFilePath(head[1]);
    return out;
  }
  return { action: 'other', text: text.replace(USER_ACTION_HEAD, '') };
}
