/**
 * Audit rows of one session: every command run, every file written or edited, every error. Derived once per
 * session in the archive pipeline (from the read, redacted session) and kept lean in the content store: one-line
 * previews and small numbers, never bodies (the step page a row links to shows the whole command, diff or error).
 * Pure: no `astro:*` import, no HTML.
 */
import { diffLines } from 'diff';
import { saneTime } from '../brain/dates.ts';
import type { Session, Step, ToolCall } from '../brain/types.ts';
import { argBoolean, argString, replacementChunks } from '../render/tool-args.ts';
import { isErrorStep } from '../archive/step-summary.ts';
import type { CommandRow, ErrorRow, FileChangeRow, SessionAudit } from './schemas.ts';

/** Longest command preview kept per row (the step page shows the whole command). */
export const COMMAND_PREVIEW_MAX = 240;
/** Longest Cwd / path kept per row. */
export const PATH_MAX = 400;
/** Longest error message kept per row. */
export const ERROR_PREVIEW_MAX = 300;

/** The tools that write or edit files. */
export const FILE_TOOLS = ['write_to_file', 'replace_file_content', 'multi_replace_file_content'] as const;

function cut(text: string, max: number): { text: string; cut: boolean } {
  return text.length > max ? { text: `${text.slice(0, max - 1)}…`, cut: true } : { text, cut: false };
}

function firstLine(text: string): string {
  return text.trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
}

function finite(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
  return undefined;
}

/**
 * What a RUN_COMMAND result step says about its command. The `exit_code` field wins (demo, some real sessions);
 * most real RUN_COMMAND steps carry none, only their text: "The command completed successfully." or
 * "The command failed with exit code: N" (survey: 78 + 14 steps), "Step was canceled…", or, while still running,
 * "Task Description: <command>".
 */
export function commandOutcome(result: Step | undefined): Pick<CommandRow, 'exitCode' | 'outcome'> {
  if (!result) return { outcome: 'unknown' };
  const recorded = finite(result.exitCode);
  const text = result.content ?? '';
  const failedText = /The command failed with exit code:\s*(-?\d+)/.exec(text);
  const exitCode = recorded ?? (failedText ? Number(failedText[1]) : /The command completed successfully\./.test(text) ? 0 : undefined);
  if (exitCode !== undefined) return { exitCode, outcome: exitCode === 0 ? 'ok' : 'failed' };
  if (result.status === 'ERROR') return { outcome: 'failed' };
  if (result.status === 'CANCELLED' || /Step was cancell?ed/.test(text)) return { outcome: 'cancelled' };
  if (result.status === 'RUNNING') return { outcome: 'running' };
  return { outcome: 'unknown' };
}

/**
 * Pair each `run_command` call with its RUN_COMMAND result step. In the real format the call sits in a
 * PLANNER_RESPONSE and the result is a later RUN_COMMAND step with no tool calls of its own; the model waits for
 * it, so a call's results are the RUN_COMMAND steps after its step and before the next step that issues another
 * `run_command` (several calls in one step take those results in order). Sessions without RUN_COMMAND steps
 * (e.g. real jetski session ca4322d4) leave every result unknown rather than guessing.
 */
function pairResults(steps: Step[]): Map<ToolCall, Step> {
  const paired = new Map<ToolCall, Step>();
  let pending: ToolCall[] = [];
  for (const step of steps) {
    const calls = step.toolCalls.filter((c) => c.name === 'run_command');
    if (calls.length > 0) {
      pending = [...calls];
      continue;
    }
    if (step.type === 'RUN_COMMAND') {
      const call = pending.shift();
      if (call) paired.set(call, step);
    }
  }
  return paired;
}

function commandRows(steps: Step[]): CommandRow[] {
  const results = pairResults(steps);
  const rows: CommandRow[] = [];
  for (const step of steps) {
    step.toolCalls.forEach((call, callIndex) => {
      if (call.name !== 'run_command') return;
      const command = cut(argString(call.args, 'CommandLine') ?? '', COMMAND_PREVIEW_MAX);
      const cwd = argString(call.args, 'Cwd');
      const result = results.get(call);
      // A run_command step that itself records an exit code (no separate result step) speaks for itself.
      const { exitCode, outcome } = commandOutcome(result ?? (step.exitCode !== undefined ? step : undefined));
      const row: CommandRow = {
        key: step.key,
        call: callIndex,
        command: command.text,
        cut: command.cut || call.truncatedArgs.includes('CommandLine'),
        bypass: argBoolean(call.args, 'BypassSandbox') === true,
        outcome,
        failed: outcome === 'failed',
      };
      if (saneTime(step.createdAt) !== undefined) row.at = step.createdAt;
      if (cwd) row.cwd = cut(cwd, PATH_MAX).text;
      if (exitCode !== undefined) row.exitCode = exitCode;
      if (result) row.resultKey = result.key;
      rows.push(row);
    });
  }
  return rows;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Lines added and removed by an edit call (a real line diff of each chunk), or by a whole-file write. */
function changeSize(call: ToolCall): { added: number; removed: number } {
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

function fileRows(steps: Step[]): FileChangeRow[] {
  const rows: FileChangeRow[] = [];
  for (const step of steps) {
    step.toolCalls.forEach((call, callIndex) => {
      if (!(FILE_TOOLS as readonly string[]).includes(call.name)) return;
      const path = argString(call.args, 'TargetFile');
      const row: FileChangeRow = {
        key: step.key,
        call: callIndex,
        path: path ? cut(path, PATH_MAX).text : '(no target file recorded)',
        tool: call.name,
        ...changeSize(call),
        cut: call.truncatedArgs.length > 0,
      };
      if (saneTime(step.createdAt) !== undefined) row.at = step.createdAt;
      if (call.name === 'write_to_file' && argBoolean(call.args, 'Overwrite') === true) row.overwrite = true;
      rows.push(row);
    });
  }
  return rows;
}

function errorRows(steps: Step[]): ErrorRow[] {
  return steps.filter(isErrorStep).map((step) => {
    const error = step.error;
    const given = typeof error === 'string' ? error : error !== undefined && error !== null ? JSON.stringify(error) : '';
    // ERROR_MESSAGE content starts with "Created At: …"; the error field, when present, is the message itself.
    const fallback = (step.content ?? '').replace(/^Created At:[^\n]*\n/, '');
    const row: ErrorRow = {
      key: step.key,
      type: step.type,
      status: step.status,
      message: cut(firstLine(given || fallback), ERROR_PREVIEW_MAX).text,
    };
    if (saneTime(step.createdAt) !== undefined) row.at = step.createdAt;
    if (step.errorCode !== undefined && step.errorCode !== null && step.errorCode !== '') {
      row.errorCode = typeof step.errorCode === 'string' ? step.errorCode : JSON.stringify(step.errorCode);
    }
    return row;
  });
}

/** The audit rows of one session, in timeline order. */
export function auditRows(session: Pick<Session, 'steps'>): SessionAudit {
  return { commands: commandRows(session.steps), files: fileRows(session.steps), errors: errorRows(session.steps) };
}
