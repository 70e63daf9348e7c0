/**
 * One-line helpers for tool calls. A timeline row's summary is not made here: it is the turn builder's
 * `StepView.summary` (`src/lib/turns/`), which knows the call a result answers and how it ended. The model's own
 * `toolSummary` ("File edit", "Command execution" on most real calls) says little; it stays for the step page,
 * as the model's words, next to the outcome read from the data.
 */
import type { Step, ToolCall } from '../brain/types.ts';

/** Longest one-line summary kept in the store. */
export const SUMMARY_MAX = 160;

/** The main argument of each known tool, used when a call carries no `toolSummary`. */
const MAIN_ARG: Record<string, string[]> = {
  run_command: ['CommandLine'],
  write_to_file: ['TargetFile'],
  replace_file_content: ['TargetFile'],
  multi_replace_file_content: ['TargetFile'],
  view_file: ['AbsolutePath'],
  list_dir: ['DirectoryPath'],
  find_by_name: ['Pattern', 'SearchDirectory'],
  grep_search: ['Query', 'SearchPath'],
  code_search: ['Query'],
  search_web: ['query'],
  read_url_content: ['Url'],
  generate_image: ['ImageName', 'Prompt'],
  manage_task: ['Action', 'TaskId'],
  schedule: ['Prompt'],
  ask_permission: ['Action', 'Target'],
  command_status: ['CommandId'],
  call_mcp_tool: ['ServerName', 'ToolName'],
};

/** First line of `text`, trimmed and cut to `max` characters. */
export function oneLine(text: string, max = SUMMARY_MAX): string {
  const first = text.trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

function stringArg(call: ToolCall, name: string): string | undefined {
  const v = call.args[name];
  if (typeof v === 'string' && v.trim() !== '') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** What the call did, in the words the agent gave (`toolAction`, e.g. "Running command"). */
export function toolAction(call: ToolCall): string {
  return stringArg(call, 'toolAction') ?? call.name;
}

/** A one-line summary of a tool call: its `toolSummary`, else its main argument, else its name. */
export function toolSummary(call: ToolCall): string {
  const given = stringArg(call, 'toolSummary');
  if (given) return oneLine(given);
  // Own keys only: a tool named `constructor` is data, not Object.prototype.constructor.
  const parts = (Object.hasOwn(MAIN_ARG, call.name) ? (MAIN_ARG[call.name] ?? []) : []).map((a) => stringArg(call, a)).filter((v) => v !== undefined);
  return oneLine(parts.length > 0 ? `${call.name}: ${parts.join(' ')}` : call.name);
}

/** True for ERROR_MESSAGE steps, ERROR status, or a non-empty `error` field (decided in `turns/failures.ts`). */
export { isErrorStep } from '../turns/failures.ts';
