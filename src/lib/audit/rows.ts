/**
 * Audit rows of one session: every command run, every file written or edited, every error. Derived once per
 * session in the archive pipeline (from the read, redacted session) and kept lean in the content store: one-line
 * previews and small numbers, never bodies (the step page a row links to shows the whole command, diff or error).
 * Pure: no `astro:*` import, no HTML.
 */
import { saneTime } from '../brain/dates.ts';
import type { Session, Step, ToolCall } from '../brain/types.ts';
import { argBoolean, argString } from '../render/tool-args.ts';
import type { CommandRow, ErrorRow, FileChangeRow, SessionAudit } from './schemas.ts';
import { buildTurns } from '../turns/build.ts';
import type { SessionTurns } from '../turns/types.ts';
import { outcomeOf } from '../turns/outcome.ts';
import { callFailureMessage, failureMessage, FAILURE_MESSAGE_MAX, isFailedCall } from '../turns/failures.ts';
import { editPath, editSize, fileHistories, fileSummaries, FILE_TOOLS as EDIT_TOOLS, PATH_MAX as EDIT_PATH_MAX } from '../turns/file-history.ts';

/** Longest command preview kept per row (the step page shows the whole command). */
export const COMMAND_PREVIEW_MAX = 240;
/** Longest Cwd / path kept per row (the edited file's path is cut alike, `turns/file-history.ts`). */
export const PATH_MAX = EDIT_PATH_MAX;
/** Longest error message kept per row (the message as `failureMessage` bounds it). */
export const ERROR_PREVIEW_MAX = FAILURE_MESSAGE_MAX;


function cut(text: string, max: number): { text: string; cut: boolean } {
  return text.length > max ? { text: `${text.slice(0, max - 1)}…`, cut: true } : { text, cut: false };
}

function finite(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
  return undefined;
}

/**
 * What a command's result step says about its command: its exit code and how it ended, read by the turn builder
 * (`outcomeOf`): the `exit_code` field wins, else the text ("The command completed successfully.", "The command
 * exited with code N." as jetski writes it, "The command failed with exit code: N", "Step was canceled…", a
 * background task still running).
 */
export function commandOutcome(result: Step | undefined): Pick<CommandRow, 'exitCode' | 'outcome'> {
  const o = outcomeOf({ name: 'run_command', args: {}, truncatedArgs: [] }, result);
  return o.exitCode !== undefined ? { exitCode: o.exitCode, outcome: o.status } : { outcome: o.status };
}

/** Every run_command call, with the outcome the turn builder read from the result it paired with the call. */
function commandRows(steps: Step[], turns: SessionTurns): CommandRow[] {
  const views = new Map(turns.calls.map((c) => [c.id, c]));
  const byKey = new Map(steps.map((st) => [st.key, st]));
  const rows: CommandRow[] = [];
  for (const step of steps) {
    step.toolCalls.forEach((call, callIndex) => {
      if (call.name !== 'run_command') return;
      const command = cut(argString(call.args, 'CommandLine') ?? '', COMMAND_PREVIEW_MAX);
      const cwd = argString(call.args, 'Cwd');
      const view = views.get(`${step.key}.${callIndex}`);
      const result = view?.resultStepKey !== undefined ? byKey.get(view.resultStepKey) : undefined;
      // A run_command step that itself records an exit code (no separate result step) speaks for itself.
      const { exitCode, outcome } = view && result ? { exitCode: view.outcome.exitCode, outcome: view.outcome.status } : commandOutcome(step.exitCode !== undefined ? step : undefined);
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
      const message = view && row.failed ? callFailureMessage(view) : undefined;
      if (message) row.message = cut(message, ERROR_PREVIEW_MAX).text;
      rows.push(row);
    });
  }
  return rows;
}

/**
 * Every edit call of the session, failed ones too (marked `failed`, with the call's message: listed so an attempt
 * is seen, counted by no "files changed": `turns/file-changes.ts`). The path is the one the turn builder counts
 * (`Outcome.target`), so a files page and the session's header count the same paths.
 */
function fileRows(steps: Step[], turns: SessionTurns): FileChangeRow[] {
  const views = new Map(turns.calls.map((c) => [c.id, c]));
  const rows: FileChangeRow[] = [];
  for (const step of steps) {
    step.toolCalls.forEach((call, callIndex) => {
      if (!EDIT_TOOLS.has(call.name)) return;
      const view = views.get(`${step.key}.${callIndex}`);
      const row: FileChangeRow = {
        key: step.key,
        call: callIndex,
        path: editPath(view, call),
        tool: call.name,
        ...editSize(call),
        cut: call.truncatedArgs.length > 0,
      };
      if (saneTime(step.createdAt) !== undefined) row.at = step.createdAt;
      if (call.name === 'write_to_file' && argBoolean(call.args, 'Overwrite') === true) row.overwrite = true;
      if (view && isFailedCall(view)) {
        row.failed = true;
        const message = callFailureMessage(view);
        if (message) row.message = cut(message, ERROR_PREVIEW_MAX).text;
      }
      rows.push(row);
    });
  }
  return rows;
}

/**
 * Every failure of the session, as `turns/failures.ts` counts them: the result step of each failed call (with the
 * call's tool and message) and each agent error, in timeline order.
 */
function errorRows(steps: Step[], turns: SessionTurns): ErrorRow[] {
  const calls = new Map(turns.calls.map((c) => [c.id, c]));
  const rows: ErrorRow[] = [];
  for (const view of turns.steps) {
    if (!view.failure) continue;
    const step = steps[view.position];
    if (!step) continue;
    const call = view.answersCallId !== undefined ? calls.get(view.answersCallId) : undefined;
    const message = call ? callFailureMessage(call) : failureMessage(step);
    const row: ErrorRow = {
      key: step.key,
      type: step.type,
      status: step.status,
      failure: view.failure,
      message: cut(message ?? '', ERROR_PREVIEW_MAX).text,
    };
    if (call) {
      row.tool = call.name;
      row.callKey = call.callStepKey;
    }
    if (saneTime(step.createdAt) !== undefined) row.at = step.createdAt;
    if (step.errorCode !== undefined && step.errorCode !== null && step.errorCode !== '') {
      row.errorCode = typeof step.errorCode === 'string' ? step.errorCode : JSON.stringify(step.errorCode);
    }
    rows.push(row);
  }
  return rows;
}

/**
 * The audit rows of one session, in timeline order, and the files it changed once each (`turns/file-history.ts`:
 * what `/sessions/<id>/changes/` shows in full and `/audit/files/` groups across sessions).
 */
export function auditRows(
  session: Pick<Session, 'steps'> & { id?: string; meta?: Pick<Session['meta'], 'workspace'> },
  turns: SessionTurns = buildTurns({ steps: session.steps }),
): SessionAudit {
  const changedFiles = fileSummaries(fileHistories(session.steps, turns, { sessionId: session.id ?? '', workspace: session.meta?.workspace }));
  return { commands: commandRows(session.steps, turns), files: fileRows(session.steps, turns), errors: errorRows(session.steps, turns), changedFiles };
}
