/**
 * Outcomes from the data: what a call acted on (its arguments) and how it ended (its result's text, exit code,
 * error), never the model's own `toolSummary` ("File edit", "Command execution" on most real calls).
 */
import type { Step, ToolCall } from '../brain/types.ts';
import { saneTime } from '../brain/dates.ts';
import type { Outcome, OutcomeStatus, ToolKind } from './types.ts';
import { decodeFilePath, readCommandText, readEditText, readViewText, splitTransport } from './transport.ts';
import { failureLine, failureMessage, isErrorStep } from './failures.ts';
import { exitLabel } from './exit-codes.ts';

/** Longest `Outcome.line`. */
export const OUTCOME_LINE_MAX = 160;
/**
 * Longest line of a failed call, which ends with why it failed: the harness's words for an invalid call and a
 * path (cut in its middle) come before the reason ("…: The system cannot find the file specified.", real 86033144).
 */
export const FAILED_LINE_MAX = 300;

const KIND: Record<string, ToolKind> = {
  run_command: 'command',
  write_to_file: 'edit',
  replace_file_content: 'edit',
  multi_replace_file_content: 'edit',
  view_file: 'view',
  view_file_outline: 'view',
  view_code_item: 'view',
  list_dir: 'list',
  find_by_name: 'search',
  grep_search: 'search',
  code_search: 'search',
  skill_search: 'search',
  search_web: 'web',
  read_url_content: 'web',
  generate_image: 'image',
  manage_task: 'task',
  command_status: 'task',
  schedule: 'task',
  ask_permission: 'permission',
  list_permissions: 'permission',
  ask_question: 'question',
};

/** The kind of work a tool does, by its name (`other` for tools we do not know). */
export function toolKind(name: string): ToolKind {
  return Object.hasOwn(KIND, name) ? (KIND[name] as ToolKind) : 'other';
}

/** The result step types each tool's results are recorded as (besides GENERIC and ERROR_MESSAGE, which fit any). */
const RESULT_TYPES: Record<string, string[]> = {
  run_command: ['RUN_COMMAND'],
  write_to_file: ['CODE_ACTION'],
  replace_file_content: ['CODE_ACTION'],
  multi_replace_file_content: ['CODE_ACTION'],
  view_file: ['VIEW_FILE'],
  list_dir: ['LIST_DIRECTORY'],
  grep_search: ['GREP_SEARCH'],
  find_by_name: ['FIND', 'FIND_BY_NAME'],
  code_search: ['CODE_SEARCH'],
  search_web: ['SEARCH_WEB'],
  read_url_content: ['READ_URL_CONTENT'],
  generate_image: ['GENERATE_IMAGE'],
  ask_question: ['ASK_QUESTION'],
  command_status: ['COMMAND_STATUS'],
  call_mcp_tool: ['MCP_TOOL'],
};

/** Result step types that say which tool wrote them (so a result can skip a pending call of another tool). */
const TYPED_RESULTS = new Set(Object.values(RESULT_TYPES).flat());

/** True when a result of `type` may answer a call of `tool` (GENERIC, ERROR_MESSAGE and unknown types fit any). */
export function resultFits(tool: string, type: string): boolean {
  if (!TYPED_RESULTS.has(type)) return true;
  return Object.hasOwn(RESULT_TYPES, tool) && (RESULT_TYPES[tool] ?? []).includes(type);
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string' && v.trim() !== '') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** First line of `text`, trimmed, cut to `max`. */
export function firstLine(text: string, max = OUTCOME_LINE_MAX): string {
  const line = text.trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** One line, whitespace runs collapsed (a multi-line command shown on one row). */
function flat(text: string, max = OUTCOME_LINE_MAX): string {
  // Only the head can show: collapsing whitespace over a whole 50 kB command first was a measured cost.
  const line = text.slice(0, max * 4).replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The path a file tool acts on, from its arguments. */
function pathArg(call: ToolCall): string | undefined {
  const p = str(call.args.TargetFile) ?? str(call.args.AbsolutePath) ?? str(call.args.File) ?? str(call.args.DirectoryPath) ?? str(call.args.SearchDirectory);
  return p?.startsWith('file://') ? decodeFilePath(p.slice('file://'.length)) : p;
}

/** The error text of a step (`failureMessage`: the words past the header, the `error` field, stderr's last lines). */
export function errorText(step: Step): string | undefined {
  return failureMessage(step);
}

/** True when a step records a failure by itself: ERROR_MESSAGE, status ERROR, or an `error` field (`isErrorStep`). */
export function stepFailed(step: Step): boolean {
  return isErrorStep(step);
}

function exitCodeOf(step: Step): number | undefined {
  const v = step.exitCode;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
  return undefined;
}

const TASK_IN_RAW = /task id: *([A-Za-z0-9._-]+\/task-\d+|task-\d+)/;

/** The background task id a result announced, from its content or from any record of it (RUNNING before DONE). */
export function backgroundTaskId(step: Step): string | undefined {
  // `includes` first: the raw lines are whole records, and the regex over each of them was a measured cost.
  const inContent = step.content?.includes('task id:') ? TASK_IN_RAW.exec(step.content)?.[1] : undefined;
  if (inContent) return inContent;
  // One record per transcript means no RUNNING record was rewritten: the content said all there is.
  if (step.sources.length <= (step.origin === 'both' ? 2 : 1)) return undefined;
  for (const src of step.sources) {
    if (!src.raw.includes('task id:')) continue;
    const m = TASK_IN_RAW.exec(src.raw);
    if (m?.[1]) return m[1];
  }
  return undefined;
}

function durationOf(startedAt?: string, completedAt?: string): number | undefined {
  if (!startedAt || !completedAt) return undefined;
  const a = saneTime(startedAt);
  const b = saneTime(completedAt);
  return a === undefined || b === undefined || b < a ? undefined : b - a;
}

/** Count JSON-object lines (`{"File":…}`, `{"name":…}`): how grep_search and list_dir list what they found. */
function jsonLines(body: string): number {
  let n = 0;
  for (const line of body.split('\n')) if (/^\s*\{".+\}\s*$/.test(line)) n++;
  return n;
}

/** How `Outcome.line` writes a path (the turn builder shortens workspace and session-folder paths). */
export type PathShortener = (path: string) => string;

/**
 * A shortener that writes paths under `workspace` relative to it and paths inside an Antigravity session folder
 * (`…/.gemini/<product>/brain/<uuid>/`, where artifacts and scratch scripts live) relative to that folder. Lines
 * only: `Outcome.target` keeps the path as recorded.
 */
export function pathShortener(workspace: string | undefined): PathShortener {
  const norm = (p: string) => p.replace(/\\/g, '/');
  const ws = workspace ? norm(workspace).replace(/\/+$/, '') : undefined;
  return (path) => {
    const p = norm(path);
    const brain = /^.*?\/\.gemini\/[^/]+\/brain\/[0-9a-f-]{36}\/(.+)$/i.exec(p);
    if (brain?.[1]) return brain[1];
    if (ws && ws !== '' && p.toLowerCase().startsWith(`${ws.toLowerCase()}/`)) return p.slice(ws.length + 1);
    return path;
  };
}

const asIs: PathShortener = (p) => p;

/** The outcome of `call`, answered by `result` (absent when nothing answered it). */
export function outcomeOf(call: ToolCall, result: Step | undefined, short: PathShortener = asIs): Outcome {
  const kind = toolKind(call.name);
  const { createdAt, completedAt, body } = result?.content ? splitTransport(result.content) : { createdAt: undefined, completedAt: undefined, body: '' };
  const startedAt = createdAt ?? result?.createdAt;
  const o: Outcome = { kind, status: 'unknown', line: '' };
  if (startedAt) o.startedAt = startedAt;
  if (completedAt) o.completedAt = completedAt;
  const d = durationOf(startedAt, completedAt);
  if (d !== undefined) o.durationMs = d;

  let status: OutcomeStatus = result === undefined ? 'unknown' : result.status === 'RUNNING' ? 'running' : result.status === 'CANCELLED' ? 'cancelled' : 'ok';
  if (result && stepFailed(result)) status = 'failed';
  // Read only for a failure: on a success it would scan every output for nothing.
  if (result && status === 'failed') {
    const error = failureMessage(result);
    if (error) o.error = error;
  }

  let line = '';
  switch (kind) {
    case 'command': {
      const command = str(call.args.CommandLine);
      if (command) o.target = command;
      const cwd = str(call.args.Cwd);
      if (cwd) o.cwd = cwd;
      const text = readCommandText(body);
      const exit = (result ? exitCodeOf(result) : undefined) ?? text.exitCode;
      if (exit !== undefined) o.exitCode = exit;
      if (text.state === 'running' && result?.status !== 'DONE') status = 'running';
      if (text.state === 'cancelled') status = 'cancelled';
      if (exit !== undefined) status = exit === 0 ? (status === 'failed' && o.error ? 'failed' : 'ok') : 'failed';
      if (status === 'failed' && !o.error && result) {
        const error = failureMessage(result);
        if (error) o.error = error;
      }
      const tail =
        exit !== undefined ? exitLabel(exit) : status === 'running' ? 'running in the background' : status === 'cancelled' ? 'cancelled' : status === 'failed' ? errorLine(o) : result ? 'ended' : 'no result';
      line = `${flat(command ?? call.name, 120)} · ${tail}`;
      break;
    }
    case 'edit': {
      const text = readEditText(body);
      const path = pathArg(call) ?? text.path;
      if (path) o.target = path;
      let added = text.added;
      let removed = text.removed;
      if (!text.hasDiff && call.name === 'write_to_file') {
        const code = str(call.args.CodeContent);
        added = code ? code.replace(/\n$/, '').split('\n').length : 0;
        removed = 0;
      }
      if (status !== 'failed' && result) {
        o.added = added;
        o.removed = removed;
      }
      const shown = path !== undefined ? short(path) : call.name;
      line = status === 'failed' ? `${shown} · ${errorLine(o)}` : result ? `${shown} +${added} −${removed}` : shown;
      break;
    }
    case 'view': {
      const text = readViewText(body);
      const path = pathArg(call) ?? text.path;
      if (path) o.target = path;
      const from = text.from ?? (typeof call.args.StartLine === 'number' ? call.args.StartLine : undefined);
      const to = text.to ?? (typeof call.args.EndLine === 'number' ? call.args.EndLine : undefined);
      if (from !== undefined && to !== undefined && status !== 'failed') {
        o.lineRange = text.totalLines !== undefined ? { from, to, total: text.totalLines } : { from, to };
      }
      const range = o.lineRange ? ` lines ${o.lineRange.from}–${o.lineRange.to}${o.lineRange.total !== undefined ? ` of ${o.lineRange.total}` : ''}` : '';
      const shown = path !== undefined ? short(path) : call.name;
      line = status === 'failed' ? `${shown} · ${errorLine(o)}` : `${shown}${range}`;
      break;
    }
    case 'list': {
      const path = pathArg(call);
      if (path) o.target = path;
      if (result && status !== 'failed') o.hits = jsonLines(body);
      line = `${path !== undefined ? short(path) : call.name}${o.hits !== undefined ? ` · ${o.hits} ${o.hits === 1 ? 'entry' : 'entries'}` : ''}`;
      break;
    }
    case 'search':
    case 'web': {
      const query = str(call.args.Query) ?? str(call.args.query) ?? str(call.args.Pattern) ?? str(call.args.Url) ?? str(call.args.url);
      if (query) o.target = query;
      const where = str(call.args.SearchPath) ?? str(call.args.SearchDirectory);
      if (result && status !== 'failed') {
        const found = /^(\d+) (?:files?|results?|matches?) found/im.exec(body);
        if (/^\s*No results found/i.test(body)) o.hits = 0;
        else if (found) o.hits = Number(found[1]);
        else if (kind === 'search') o.hits = jsonLines(body) || body.split('\n').filter((l) => /^- /.test(l)).length;
        // A web search ends with its sources, one `[n] [site](url)` (86033144) or `[n] url` (the demo) line each.
        else if (call.name === 'search_web') o.hits = (body.match(/^\[\d+\] +(?:\[|https?:)/gm) ?? []).length;
      }
      const shown = call.name === 'read_url_content' ? flat(query ?? call.name) : `"${flat(query ?? '', 100)}"`;
      const unit = call.name === 'search_web' ? ['source', 'sources'] : ['hit', 'hits'];
      const hits = o.hits !== undefined ? ` · ${o.hits} ${o.hits === 1 ? unit[0] : unit[1]}` : '';
      line = status === 'failed' ? `${shown} · ${errorLine(o)}` : `${shown}${where ? ` in ${short(where)}` : ''}${hits}`;
      break;
    }
    case 'image': {
      const name = str(call.args.ImageName);
      const saved = /Generated image is saved at (.+?)\.?[ \t]*$/m.exec(body)?.[1];
      if (saved) o.producedFile = saved;
      if (name) o.target = name;
      line = status === 'failed' ? `${name ?? call.name} · ${errorLine(o)}` : `${name ?? flat(str(call.args.Prompt) ?? call.name, 80)}${saved ? ' · saved' : ''}`;
      break;
    }
    case 'permission': {
      const action = str(call.args.Action);
      const target = str(call.args.Target);
      const asked = action ? `${action}${target ? ` on ${target}` : ''}` : call.name;
      if (target) o.target = target;
      const granted = /^Permission for (.+?) (?:was|has been) (already )?granted/m.exec(body);
      const denied = /denied|rejected|not granted/i.test(body);
      if (call.name === 'list_permissions') line = 'permissions listed';
      else if (granted) {
        o.granted = `${granted[1]}${granted[2] ? ' (already granted)' : ''}`;
        line = `${asked} · granted`;
      } else line = `${asked}${result ? (denied ? ' · denied' : '') : ''}`;
      break;
    }
    case 'task': {
      const id = str(call.args.TaskId) ?? str(call.args.CommandId);
      if (id) o.target = id;
      const head = body.slice(0, 2000);
      const state = /^Status: *(\S+)/m.exec(head)?.[1];
      const cancelled = /was cancell?ed/i.test(head);
      const action = str(call.args.Action);
      line =
        call.name === 'schedule'
          ? `timer ${flat(str(call.args.Prompt) ?? '', 100)}`.trim()
          : `${action ? `${action} ` : ''}${id ? shortTask(id) : call.name}${state ? ` · ${state}` : cancelled ? ' · cancelled' : ''}`;
      break;
    }
    case 'question': {
      const answer = /^A\d*: *(.+)$/m.exec(body)?.[1];
      line = answer ? `answered: ${flat(answer, 120)}` : result ? flat(body, 120) : 'no answer';
      break;
    }
    default: {
      // A browser_subagent call names its work in TaskName and states it in Task (real b1966f3f step 52): its row
      // said only "browser_subagent".
      const main = str(call.args.ToolName) ?? str(call.args.TaskName) ?? str(call.args.Task) ?? str(call.args.Prompt) ?? str(call.args.Query);
      const target = call.name === 'browser_subagent' ? (str(call.args.Task) ?? main) : main;
      if (target) o.target = target;
      line = main ? flat(main, 120) : call.name;
    }
  }
  o.status = status;
  o.line = flat(line || call.name, status === 'failed' ? FAILED_LINE_MAX : OUTCOME_LINE_MAX);
  return o;
}

/** A failed outcome's message on one line, or "failed" when the record gave none. */
function errorLine(o: Outcome): string {
  return o.error ? failureLine(o.error, FAILED_LINE_MAX - 60) : 'failed';
}

/** `…/task-12` → `task-12`. */
export function shortTask(id: string): string {
  const m = /task-\d+$/.exec(id);
  return m ? m[0] : id;
}

/** The outcome of a result step no call claims: its own status, error and times. */
export function orphanOutcome(result: Step): Outcome {
  const { createdAt, completedAt, body } = result.content ? splitTransport(result.content) : { createdAt: undefined, completedAt: undefined, body: '' };
  const exit = exitCodeOf(result) ?? readCommandText(body).exitCode;
  const failed = stepFailed(result) || (exit !== undefined && exit !== 0);
  const error = failed ? failureMessage(result) : undefined;
  const o: Outcome = {
    kind: result.type === 'RUN_COMMAND' ? 'command' : result.type === 'CODE_ACTION' ? 'edit' : result.type === 'VIEW_FILE' ? 'view' : 'other',
    status: failed ? 'failed' : result.status === 'RUNNING' ? 'running' : result.status === 'CANCELLED' ? 'cancelled' : 'ok',
    line: flat((stepFailed(result) && error ? failureLine(error, FAILED_LINE_MAX) : undefined) ?? firstLine(body) ?? result.type, failed ? FAILED_LINE_MAX : OUTCOME_LINE_MAX) || result.type,
  };
  if (exit !== undefined) o.exitCode = exit;
  if (error) o.error = error;
  const start = createdAt ?? result.createdAt;
  if (start) o.startedAt = start;
  if (completedAt) o.completedAt = completedAt;
  const d = durationOf(start, completedAt);
  if (d !== undefined) o.durationMs = d;
  return o;
}
