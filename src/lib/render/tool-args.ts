/**
 * What a tool call is, for its view: which view fits it, a title, the thing it acts on, and the model's own
 * `toolSummary`/`toolAction` labels. Arguments are `unknown` (the reader keeps whatever the record held, and a
 * compact-only value can still be a cut JSON string), so every getter checks the type and never throws.
 * Argument names are those seen in the real sessions (SURVEY.md) and the spec's tool table.
 */
import type { ToolCall } from '../brain/types.ts';
import { languageForCommand, languageForPath } from './highlight.ts';

/** The view a page uses for a tool call; `generic` shows the arguments as highlighted JSON. */
export type ToolView =
  | 'command'
  | 'command-status'
  | 'write-file'
  | 'replace-file'
  | 'multi-replace-file'
  | 'view-file'
  | 'list-dir'
  | 'find-by-name'
  | 'grep-search'
  | 'code-search'
  | 'mcp'
  | 'subagent'
  | 'web-search'
  | 'read-url'
  | 'generate-image'
  | 'manage-task'
  | 'schedule'
  | 'ask-permission'
  | 'ask-question'
  | 'generic';

/** How a page should present a tool call. */
export interface ToolCallDescription {
  view: ToolView;
  /** A label for the tool, e.g. "Run command"; the raw name for unknown tools. */
  title: string;
  /** The model's `toolSummary` (short label), when it is a non-empty string. */
  summary?: string;
  /** The model's `toolAction` (what it says it is doing), when it is a non-empty string. */
  action?: string;
  /** The main thing acted on: the command line, file path, query, URL, server/tool… */
  subject?: string;
  /** Language for highlighting the main content (the command, the file written). */
  language?: string;
}

const TOOLS: Record<string, { view: ToolView; title: string; subject?: string[] }> = {
  run_command: { view: 'command', title: 'Run command', subject: ['CommandLine'] },
  command_status: { view: 'command-status', title: 'Command status', subject: ['CommandId'] },
  write_to_file: { view: 'write-file', title: 'Write file', subject: ['TargetFile'] },
  replace_file_content: { view: 'replace-file', title: 'Edit file', subject: ['TargetFile'] },
  multi_replace_file_content: { view: 'multi-replace-file', title: 'Edit file (several places)', subject: ['TargetFile'] },
  view_file: { view: 'view-file', title: 'View file', subject: ['AbsolutePath'] },
  list_dir: { view: 'list-dir', title: 'List folder', subject: ['DirectoryPath'] },
  find_by_name: { view: 'find-by-name', title: 'Find files', subject: ['Pattern', 'SearchDirectory'] },
  grep_search: { view: 'grep-search', title: 'Search file contents', subject: ['Query'] },
  code_search: { view: 'code-search', title: 'Code search', subject: ['Query', 'query'] },
  call_mcp_tool: { view: 'mcp', title: 'MCP tool call' },
  invoke_subagent: { view: 'subagent', title: 'Start subagents' },
  search_web: { view: 'web-search', title: 'Web search', subject: ['query', 'Query'] },
  read_url_content: { view: 'read-url', title: 'Read URL', subject: ['Url', 'URL', 'url'] },
  generate_image: { view: 'generate-image', title: 'Generate image', subject: ['ImageName', 'Prompt'] },
  manage_task: { view: 'manage-task', title: 'Manage task', subject: ['Action', 'TaskId'] },
  schedule: { view: 'schedule', title: 'Schedule', subject: ['Prompt'] },
  ask_permission: { view: 'ask-permission', title: 'Ask permission', subject: ['Action', 'Target'] },
  ask_question: { view: 'ask-question', title: 'Ask question' },
};

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A string argument, or undefined when absent or not a string. Empty strings are returned as they are. */
export function argString(args: unknown, name: string): string | undefined {
  const value = asRecord(args)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** A numeric argument; numeric strings (`"40"`, as compact records held them) count. */
export function argNumber(args: unknown, name: string): number | undefined {
  const value = asRecord(args)?.[name];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return undefined;
}

/** A boolean argument; `"true"`/`"false"` strings count. */
export function argBoolean(args: unknown, name: string): boolean | undefined {
  const value = asRecord(args)?.[name];
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return undefined;
}

function nonEmpty(s: string | undefined): string | undefined {
  return s !== undefined && s.trim() !== '' ? s : undefined;
}

/** Which view a tool call gets, a title, its subject and the model's labels. Never throws. */
export function describeToolCall(call: ToolCall): ToolCallDescription {
  const known = Object.hasOwn(TOOLS, call.name) ? TOOLS[call.name] : undefined;
  const args = call.args;
  const description: ToolCallDescription = {
    view: known?.view ?? 'generic',
    title: known?.title ?? call.name,
  };
  const summary = nonEmpty(argString(args, 'toolSummary'));
  const action = nonEmpty(argString(args, 'toolAction'));
  if (summary) description.summary = summary;
  if (action) description.action = action;

  let subject: string | undefined;
  for (const name of known?.subject ?? []) {
    subject = nonEmpty(argString(args, name));
    if (subject) break;
  }
  if (call.name === 'call_mcp_tool') {
    const server = nonEmpty(argString(args, 'ServerName'));
    const tool = nonEmpty(argString(args, 'ToolName'));
    subject = [server, tool].filter(Boolean).join(' / ') || undefined;
  }
  if (call.name === 'invoke_subagent') {
    const count = Array.isArray(asRecord(args)?.Subagents) ? (asRecord(args)?.Subagents as unknown[]).length : 0;
    if (count) subject = `${count} subagent${count === 1 ? '' : 's'}`;
  }
  if (subject) description.subject = subject;

  if (description.view === 'command') description.language = languageForCommand();
  const file = argString(args, 'TargetFile') ?? argString(args, 'AbsolutePath');
  if (file && ['write-file', 'replace-file', 'multi-replace-file', 'view-file'].includes(description.view)) {
    description.language = languageForPath(file);
  }
  return description;
}

/** One chunk of a `multi_replace_file_content` call (or the single one of `replace_file_content`). */
export interface ReplacementChunk {
  targetContent: string;
  replacementContent: string;
  startLine?: number;
  endLine?: number;
  allowMultiple?: boolean;
}

function chunkFrom(record: Record<string, unknown>): ReplacementChunk | undefined {
  const targetContent = argString(record, 'TargetContent');
  const replacementContent = argString(record, 'ReplacementContent');
  if (targetContent === undefined || replacementContent === undefined) return undefined;
  const chunk: ReplacementChunk = { targetContent, replacementContent };
  const startLine = argNumber(record, 'StartLine');
  const endLine = argNumber(record, 'EndLine');
  const allowMultiple = argBoolean(record, 'AllowMultiple');
  if (startLine !== undefined) chunk.startLine = startLine;
  if (endLine !== undefined) chunk.endLine = endLine;
  if (allowMultiple !== undefined) chunk.allowMultiple = allowMultiple;
  return chunk;
}

/**
 * The target → replacement chunks of an edit call, for `renderDiff`. Empty when the arguments are not there in
 * a usable shape (e.g. `ReplacementChunks` still a cut JSON string): the page then shows the raw arguments.
 */
export function replacementChunks(call: ToolCall): ReplacementChunk[] {
  if (call.name === 'replace_file_content') {
    const chunk = chunkFrom(call.args);
    return chunk ? [chunk] : [];
  }
  const chunks = call.args.ReplacementChunks;
  if (!Array.isArray(chunks)) return [];
  return chunks.flatMap((c) => {
    const record = asRecord(c);
    const chunk = record && chunkFrom(record);
    return chunk ? [chunk] : [];
  });
}
