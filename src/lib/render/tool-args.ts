/**
 * Typed access to a tool call's arguments for the tool views. Arguments are `unknown` (the reader keeps whatever
 * the record held, and a compact-only value can still be a cut JSON string), so every getter checks the type and
 * never throws. Argument names are those seen in the real sessions (SURVEY.md) and the spec's tool table.
 */
import type { ToolCall } from '../brain/types.ts';

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
