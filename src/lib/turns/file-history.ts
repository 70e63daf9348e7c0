/**
 * What a session did to each file, once per file (issue 28: the files page was a log of 194 edit calls in time
 * order; the 40 paths were never listed once and `index.html`, edited 107 times, had no net diff). For every path an
 * edit call named: its edits in order, whether it was created, and the **net diff** from the first content the
 * session saw of it to the last, where the records hold both; otherwise why not (the edits are then shown in order).
 *
 * The first content the session saw is, in timeline order, whichever comes first: a file created by
 * `write_to_file` (empty before it), a `view_file` that showed the whole file (`Showing lines 1 to N` of `Total
 * Lines: N`, every line numbered: 74 of the real sessions' views said "the entire, complete file contents"), or a
 * whole-file write with `Overwrite` (what it held before is then not in the records, and the page says so). From
 * there each applied edit is replayed (`TargetContent` → `ReplacementContent`, found in the content as the tool
 * finds it); a later whole view is what the session saw last, and a whole write is the content again. An edit whose
 * target is not in the replayed content, or whose arguments the transcript cut, leaves the content unknown until a
 * whole view or write gives it back.
 *
 * What counts as a changed file is `file-changes.ts`'s rule (an edit call that did not fail), and the path is the
 * one that rule counts, so this page's number is the header's. Pure: no Astro, no HTML.
 */
import { diffLines } from 'diff';
import type { Step, ToolCall } from '../brain/types.ts';
import { diffRows, type DiffRow } from '../render/diff.ts';
import { argBoolean, argString, replacementChunks } from '../render/tool-args.ts';
import { callFailureMessage, isFailedCall } from './failures.ts';
import { isFileChange, NO_TARGET_FILE } from './file-changes.ts';
import type { SessionTurns, ToolCallView } from './types.ts';

/** The tools that write or edit a file. */
export const FILE_TOOLS: ReadonlySet<string> = new Set(['write_to_file', 'replace_file_content', 'multi_replace_file_content']);
/** Longest path kept (as the audit rows keep it: the same cut, so the same distinct paths are counted). */
export const PATH_MAX = 400;
/** Rows of one file's net diff kept (hunk headers included); the file's edits, each on its step page, hold the rest. */
export const NET_ROWS_MAX = 800;
/**
 * Rows of net diff one page shows over all its files: a session that wrote a dozen long documents whole (ca4322d4:
 * 18 files, ~4,000 added lines) would otherwise weigh ~700 kB. Each file still shows at least `NET_ROWS_FLOOR`.
 */
export const NET_ROWS_BUDGET = 2_400;
export const NET_ROWS_FLOOR = 60;
/** Unchanged lines kept around each change of a net diff. */
export const NET_CONTEXT = 3;

/** One edit call on a file, in timeline order. */
export interface FileEdit {
  /** `ToolCallView.id` (`<callStepKey>.<callIndex>`): its place in the conversation. */
  callId: string;
  callStepKey: string;
  resultStepKey?: string;
  tool: string;
  at?: string;
  /** Lines added and removed by this edit alone (a whole-file write counts every line as added). */
  added: number;
  removed: number;
  /** The call failed: listed, changed nothing, counted nowhere (`file-changes.ts`). */
  failed: boolean;
  message?: string;
  /** `Overwrite` was set on a whole-file write. */
  overwrite: boolean;
  /** Some argument is cut in the transcript. */
  cut: boolean;
  /** Where the call is in the conversation: index of its turn in `SessionTurns.turns` and of its item in that turn. */
  turnIndex?: number;
  itemIndex?: number;
}

/** Where a net diff starts: what the records hold as the first content of the file. */
export type NetBase =
  | { kind: 'created'; stepKey: string }
  | { kind: 'view'; stepKey: string }
  | { kind: 'overwritten'; stepKey: string };

/** One file the session's edit calls named. */
export interface FileHistory {
  /** The path as recorded (the one `changedPaths` counts). */
  path: string;
  /** The path as shown: relative to the workspace or to the session's own folder when under it, else as recorded. */
  shownPath: string;
  where: 'workspace' | 'session-folder' | 'elsewhere';
  /** Every edit call on the path, failed ones too, in timeline order. */
  edits: FileEdit[];
  /** Edits that changed it (did not fail). A file with none is an attempt only, counted in no "files changed". */
  applied: number;
  /** Its first applied edit wrote it whole with `write_to_file` without `Overwrite`, before any content was seen. */
  created?: { stepKey: string };
  /** A command deleted it after its last edit (`deletedPaths`: the command names the file). */
  deleted?: { stepKey: string; callId: string; command: string; turnIndex?: number; itemIndex?: number };
  /** Lines added and removed: the net diff's when there is one, else the applied edits' sum. */
  added: number;
  removed: number;
  /** The net diff, first content seen → last, or absent with `noNet` saying why. */
  net?: { base: NetBase; lastStepKey: string; rows: DiffRow[]; totalRows: number };
  noNet?: string;
  /** Views that showed the file whole exactly as the edits replayed so far made it (the replay checked). */
  confirmedBy?: string[];
  /** Views that showed it whole and different: it changed outside the edits (a command, the user); the view wins. */
  differedAt?: string[];
}

/** Lean per-file facts kept in the session summary (the audit view across sessions reads these). */
export interface FileSummary {
  path: string;
  shownPath: string;
  edits: number;
  failedEdits: number;
  added: number;
  removed: number;
  created?: boolean;
  deleted?: boolean;
  net: boolean;
}

/** The path an edit call's row counts: the turn builder's target, else `TargetFile`, cut like every audit path. */
export function editPath(view: Pick<ToolCallView, 'outcome'> | undefined, call: ToolCall): string {
  const path = view?.outcome.target ?? argString(call.args, 'TargetFile');
  if (!path) return NO_TARGET_FILE;
  return path.length > PATH_MAX ? `${path.slice(0, PATH_MAX - 1)}…` : path;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Lines added and removed by one edit call (a real line diff of each chunk), or by a whole-file write. */
export function editSize(call: ToolCall): { added: number; removed: number } {
  if (call.name === 'write_to_file') return { added: lineCount(argString(call.args, 'CodeContent') ?? ''), removed: 0 };
  let added = 0;
  let removed = 0;
  for (const chunk of replacementChunks(call)) {
    for (const part of diffLines(chunk.targetContent, chunk.replacementContent)) {
      if (part.added) added += part.count ?? 0;
      else if (part.removed) removed += part.count ?? 0;
    }
  }
  return { added, removed };
}

/** Comparable form of a path: one slash kind, no trailing slash, case folded (Windows paths differ only in case). */
function pathKey(path: string): string {
  return path.replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase();
}

/** The path shown for `path`: relative to the workspace or to the session's own brain folder when under one. */
export function shownPathOf(path: string, workspace: string | undefined, sessionId: string): Pick<FileHistory, 'shownPath' | 'where'> {
  const slashed = path.replace(/\\/g, '/');
  const key = pathKey(path);
  if (workspace) {
    const ws = pathKey(workspace);
    if (ws !== '' && key.startsWith(`${ws}/`)) return { shownPath: slashed.slice(ws.length + 1), where: 'workspace' };
  }
  const marker = `/brain/${sessionId.toLowerCase()}/`;
  const at = key.indexOf(marker);
  if (at >= 0) return { shownPath: slashed.slice(at + marker.length), where: 'session-folder' };
  return { shownPath: path, where: 'elsewhere' };
}

const LF = (text: string): string => text.replace(/\r\n?/g, '\n');

/**
 * A file's content compared and diffed without its trailing line breaks: the view tool counts the empty string
 * after a final newline as a line (86033144: README.md written at step 7235 without one, viewed at 7281 as one
 * more empty line), so a write and a view of the same bytes differ only there.
 */
const sameEnd = (text: string): string => text.replace(/\n+$/, '');

/**
 * The whole file a `view_file` result shows, or undefined when it shows part of it, is cut, or is not a view.
 * The format (every real session): `Total Lines: N`, `Showing lines 1 to N`, then `<n>: <line>` for each line.
 */
export function wholeViewContent(result: Step | undefined): string | undefined {
  if (!result || result.truncatedFields.includes('content') || !result.content) return undefined;
  const text = LF(result.content);
  if (text.includes('<truncated ')) return undefined;
  const total = /^Total Lines: (\d+)$/m.exec(text);
  const showing = /^Showing lines (\d+) to (\d+)$/m.exec(text);
  if (!total || !showing || showing[1] !== '1' || showing[2] !== total[1]) return undefined;
  const n = Number(total[1]);
  const lines: string[] = [];
  let next = 1;
  for (const line of text.split('\n')) {
    if (next > n) break;
    const m = /^(\d+):(?: (.*))?$/s.exec(line);
    if (m && Number(m[1]) === next) {
      lines.push(m[2] ?? '');
      next++;
    } else if (next > 1) return undefined;
  }
  if (lines.length !== n) return undefined;
  return sameEnd(lines.join('\n'));
}

/** Where each of a string's occurrences in `text` starts. */
function occurrences(text: string, target: string): number[] {
  const at: number[] = [];
  if (target === '') return at;
  for (let i = text.indexOf(target); i >= 0; i = text.indexOf(target, i + 1)) at.push(i);
  return at;
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** `content` with an edit call's chunks applied, or why it cannot be. */
export function replayEdit(content: string, call: ToolCall): { content: string } | { why: string } {
  if (call.truncatedArgs.length > 0) return { why: 'its arguments are cut in the transcript' };
  if (call.name === 'write_to_file') {
    const written = argString(call.args, 'CodeContent');
    return written === undefined ? { why: 'it records no content' } : { content: sameEnd(LF(written)) };
  }
  const chunks = replacementChunks(call);
  if (chunks.length === 0) return { why: 'its replacement chunks are not readable' };
  let text = content;
  for (const chunk of chunks) {
    const target = LF(chunk.targetContent);
    const replacement = LF(chunk.replacementContent);
    const at = occurrences(text, target);
    if (at.length === 0) return { why: 'its target text is not in the content the records hold' };
    if (at.length > 1 && chunk.allowMultiple === true) {
      text = text.split(target).join(replacement);
      continue;
    }
    let pick = at.length === 1 ? at[0] : undefined;
    // Several places match: the tool takes the one inside the chunk's StartLine–EndLine.
    if (pick === undefined && chunk.startLine !== undefined) {
      const inRange = at.filter((i) => {
        const line = lineOf(text, i);
        return line >= (chunk.startLine as number) && line <= (chunk.endLine ?? chunk.startLine as number);
      });
      if (inRange.length === 1) pick = inRange[0];
    }
    if (pick === undefined) return { why: 'its target text is in the content more than once' };
    text = text.slice(0, pick) + replacement + text.slice(pick + target.length);
  }
  return { content: sameEnd(text) };
}

/** Commands that delete the files they name (POSIX shells, cmd, PowerShell and its aliases, git). */
const DELETE_VERBS = new Set(['rm', 'unlink', 'del', 'erase', 'remove-item', 'ri', 'rimraf']);

/** The words of one shell command, quotes removed (enough for the paths a delete names; no expansion). */
function words(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/**
 * The files a command line deletes, as absolute paths (relative ones joined to `cwd`): each part of the line
 * (`;`, `&&`, `||`, new lines) whose first word is `rm`, `del`, `Remove-Item` … or `git rm`, and its arguments that
 * are no option. A glob or a variable names no file here; what the command does beyond its words is not guessed.
 */
export function deletedPaths(command: string, cwd: string | undefined): string[] {
  const out: string[] = [];
  for (const part of command.split(/&&|\|\||;|\r?\n/)) {
    let w = words(part.trim());
    if (w[0]?.toLowerCase() === 'git' && w[1] === 'rm') w = w.slice(1);
    if (!DELETE_VERBS.has((w[0] ?? '').toLowerCase())) continue;
    for (const arg of w.slice(1)) {
      if (/^-/.test(arg) || /[*?$`]/.test(arg) || arg === '') continue;
      const absolute = /^(?:[A-Za-z]:[\\/]|\/|\\\\)/.test(arg);
      if (absolute) out.push(arg);
      else if (cwd) out.push(`${cwd.replace(/[\\/]+$/, '')}/${arg.replace(/^\.[\\/]/, '')}`);
    }
  }
  return out;
}

interface Event {
  kind: 'edit' | 'view' | 'delete';
  view: ToolCallView;
  call: ToolCall;
}

/** Where each call is in the conversation: `[turn index, item index]` by call id. */
function callPlaces(turns: SessionTurns): Map<string, [number, number]> {
  const places = new Map<string, [number, number]>();
  turns.turns.forEach((turn, t) =>
    turn.items.forEach((item, i) => {
      if (item.kind === 'reply') for (const c of item.calls) places.set(c.id, [t, i]);
    }),
  );
  return places;
}

/**
 * Every file the session's edit calls named, in the order first edited (the files only attempted last): each with its edits, whether it was
 * created, its lines added and removed, and its net diff (or why there is none).
 */
export function fileHistories(steps: readonly Step[], turns: SessionTurns, options: { sessionId: string; workspace?: string }): FileHistory[] {
  const byKey = new Map(steps.map((s) => [s.key, s]));
  const places = callPlaces(turns);
  const events = new Map<string, Event[]>();
  const order: string[] = [];
  const viewsByKey = new Map<string, Event[]>();
  for (const view of turns.calls) {
    const call = byKey.get(view.callStepKey)?.toolCalls[view.callIndex];
    if (!call) continue;
    if (FILE_TOOLS.has(call.name)) {
      const path = editPath(view, call);
      let list = events.get(path);
      if (!list) {
        list = [];
        events.set(path, list);
        order.push(path);
      }
      list.push({ kind: 'edit', view, call });
    } else if (call.name === 'run_command' && !isFailedCall(view)) {
      for (const deleted of deletedPaths(argString(call.args, 'CommandLine') ?? '', argString(call.args, 'Cwd'))) {
        const key = pathKey(deleted);
        const list = viewsByKey.get(key) ?? [];
        list.push({ kind: 'delete', view, call });
        viewsByKey.set(key, list);
      }
    } else if (call.name === 'view_file' && view.outcome.target) {
      const key = pathKey(view.outcome.target);
      const list = viewsByKey.get(key) ?? [];
      list.push({ kind: 'view', view, call });
      viewsByKey.set(key, list);
    }
  }
  const histories = order.map((path) => {
    const views = viewsByKey.get(pathKey(path)) ?? [];
    const timeline = [...(events.get(path) ?? []), ...views].sort((a, b) => a.view.callPosition - b.view.callPosition || a.view.callIndex - b.view.callIndex);
    return historyOf(path, timeline, byKey, places, options);
  });
  // The files changed first, then those only attempted; a file's place in this list is its anchor on the page.
  return [...histories.filter((h) => h.applied > 0), ...histories.filter((h) => h.applied === 0)];
}

function historyOf(
  path: string,
  timeline: Event[],
  byKey: Map<string, Step>,
  places: Map<string, [number, number]>,
  options: { sessionId: string; workspace?: string },
): FileHistory {
  const edits: FileEdit[] = [];
  let base: { text: string; from: NetBase } | undefined;
  let current: string | undefined;
  let lastStepKey: string | undefined;
  let lost: string | undefined;
  let created: FileHistory['created'];
  let deleted: FileHistory['deleted'];
  let anyApplied = false;
  const confirmed: string[] = [];
  const differed: string[] = [];
  for (const e of timeline) {
    const result = e.view.resultStepKey !== undefined ? byKey.get(e.view.resultStepKey) : undefined;
    if (e.kind === 'delete') {
      // Deleted after the edits so far: said on the page; a later write brings it back.
      if (anyApplied) {
        deleted = { stepKey: e.view.callStepKey, callId: e.view.id, command: argString(e.call.args, 'CommandLine') ?? '' };
        const place = places.get(e.view.id);
        if (place) [deleted.turnIndex, deleted.itemIndex] = place;
      }
      continue;
    }
    if (e.kind === 'view') {
      const seen = wholeViewContent(result);
      if (seen === undefined || isFailedCall(e.view)) continue;
      const viewKey = e.view.resultStepKey ?? e.view.callStepKey;
      if (!base) base = { text: seen, from: { kind: 'view', stepKey: viewKey } };
      else if (current !== undefined && lastStepKey !== viewKey) (current === seen ? confirmed : differed).push(viewKey);
      if (base) {
        current = seen;
        lastStepKey = e.view.resultStepKey ?? e.view.callStepKey;
        lost = undefined;
      }
      continue;
    }
    const { call, view } = e;
    const failed = isFailedCall(view);
    const overwrite = call.name === 'write_to_file' && argBoolean(call.args, 'Overwrite') === true;
    const edit: FileEdit = {
      callId: view.id,
      callStepKey: view.callStepKey,
      tool: call.name,
      ...editSize(call),
      failed,
      overwrite,
      cut: call.truncatedArgs.length > 0,
    };
    if (view.resultStepKey !== undefined) edit.resultStepKey = view.resultStepKey;
    const at = byKey.get(view.callStepKey)?.createdAt;
    if (at) edit.at = at;
    if (failed) {
      const message = callFailureMessage(view);
      if (message) edit.message = message;
    }
    const place = places.get(view.id);
    if (place) [edit.turnIndex, edit.itemIndex] = place;
    edits.push(edit);
    if (!isFileChange(view)) continue;
    deleted = undefined;
    const first = !anyApplied;
    anyApplied = true;
    if (!base && call.name === 'write_to_file' && call.truncatedArgs.length === 0) {
      // Nothing of the file was seen before this write: empty before it if it was created, else not in the records.
      base = { text: '', from: overwrite ? { kind: 'overwritten', stepKey: view.callStepKey } : { kind: 'created', stepKey: view.callStepKey } };
      current = '';
      if (first && !overwrite) created = { stepKey: view.callStepKey };
    }
    if (!base) {
      lost ??=
        call.name === 'write_to_file'
          ? `the whole-file write at step ${view.callStepKey} is cut in the transcript, and no view showed the file whole`
          : `the records never show this file whole before its first edit (step ${view.callStepKey}): no view of all its lines, no whole-file write`;
      continue;
    }
    if (current === undefined && call.name !== 'write_to_file') continue;
    const next = replayEdit(current ?? '', call);
    if ('why' in next) {
      current = undefined;
      lost = `the edit at step ${view.callStepKey} cannot be replayed: ${next.why}`;
      continue;
    }
    current = next.content;
    lastStepKey = view.callStepKey;
    lost = undefined;
  }
  const applied = edits.filter((x) => !x.failed);
  const history: FileHistory = {
    path,
    ...shownPathOf(path, options.workspace, options.sessionId),
    edits,
    applied: applied.length,
    added: applied.reduce((n, x) => n + x.added, 0),
    removed: applied.reduce((n, x) => n + x.removed, 0),
  };
  if (created) history.created = created;
  if (deleted) history.deleted = deleted;
  if (confirmed.length > 0) history.confirmedBy = confirmed;
  if (differed.length > 0) history.differedAt = differed;
  if (applied.length === 0) {
    history.noNet = 'no edit of this file was applied (every attempt failed)';
    return history;
  }
  if (base && current !== undefined && lastStepKey !== undefined) {
    const rows = diffRows(base.text, current, { context: NET_CONTEXT });
    history.net = { base: base.from, lastStepKey, rows: rows.slice(0, NET_ROWS_MAX), totalRows: rows.length };
    history.added = rows.filter((r) => r.kind === 'add').length;
    history.removed = rows.filter((r) => r.kind === 'del').length;
  } else {
    history.noNet = lost ?? 'the records never show this file whole';
  }
  return history;
}

/**
 * How many net-diff rows each file shows on one page, in list order: what its net diff has, while the page's
 * `budget` lasts, and never fewer than `floor` (or its whole diff when shorter).
 */
export function netRowsShown(histories: readonly Pick<FileHistory, 'net'>[], budget = NET_ROWS_BUDGET, floor = NET_ROWS_FLOOR): number[] {
  let left = budget;
  return histories.map((h) => {
    const rows = h.net?.rows.length ?? 0;
    const shown = Math.min(rows, Math.max(floor, left));
    left = Math.max(0, left - shown);
    return shown;
  });
}

/** The lean facts of each file (`FileSummary`), for the session summary and the audit view across sessions. */
export function fileSummaries(histories: readonly FileHistory[]): FileSummary[] {
  return histories.map((h) => {
    const s: FileSummary = {
      path: h.path,
      shownPath: h.shownPath,
      edits: h.applied,
      failedEdits: h.edits.length - h.applied,
      added: h.added,
      removed: h.removed,
      net: h.net !== undefined,
    };
    if (h.created) s.created = true;
    if (h.deleted) s.deleted = true;
    return s;
  });
}
