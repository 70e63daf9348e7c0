/**
 * Tool-call arguments. In the compact transcript every argument value is a JSON-encoded string (SURVEY: 22,229 of
 * 22,229 values: `"true"`, `"12"`, `"\"text\""`), and long ones are cut: the encoded text stops and
 * `\n<truncated N bytes>` follows, so the value no longer parses. The full transcript holds native values, which
 * are kept untouched (a full string that happens to look like JSON is just a string).
 */
import { MAX_NESTING, nestingDepth } from './nesting.ts';
import type { ToolCall } from './types.ts';

const CUT_MARKER = /\n<truncated (\d+) bytes>$/;

/**
 * Decode one compact argument value. `cut` is true when the value was truncated and is kept as (partial) text;
 * `depth` is set when the decoded value nests deeper than the archive keeps (nesting.ts) and is kept as the encoded
 * text the transcript holds.
 */
export function decodeCompactValue(value: unknown): { value: unknown; cut: boolean; depth?: number } {
  if (typeof value !== 'string') return { value, cut: false };
  try {
    const decoded: unknown = JSON.parse(value);
    const depth = nestingDepth(decoded);
    return depth > MAX_NESTING ? { value, cut: false, depth: nestingDepth(decoded, Number.MAX_SAFE_INTEGER) } : { value: decoded, cut: false };
  } catch {
    // Not JSON: a cut value, or a plain string written by some other version.
  }
  const marker = CUT_MARKER.exec(value);
  if (!marker) return { value, cut: false };
  const head = value.slice(0, marker.index);
  // An encoded string cut mid-way: unescape what is there, keep the marker visible so nobody mistakes it for the
  // whole value. A cut array/object (`[`…, multi_replace_file_content) stays as its encoded text.
  if (head.startsWith('"')) {
    const text = decodePartialJsonString(head.slice(1));
    if (text !== undefined) return { value: `${text}\n<truncated ${marker[1]} bytes>`, cut: true };
  }
  return { value, cut: true };
}

/** Unescape the body of a JSON string that was cut anywhere (possibly inside an escape sequence). */
function decodePartialJsonString(body: string): string | undefined {
  // Drop a dangling partial escape at the very end (`\`, `\u12`), then let JSON.parse do the unescaping.
  let trimmed = body;
  const unicode = /\\u[0-9a-fA-F]{0,3}$/.exec(trimmed);
  if (unicode && backslashesBefore(trimmed, unicode.index) % 2 === 0) trimmed = trimmed.slice(0, unicode.index);
  if (backslashesBefore(trimmed, trimmed.length) % 2 === 1) trimmed = trimmed.slice(0, -1);
  try {
    const decoded: unknown = JSON.parse(`"${trimmed}"`);
    return typeof decoded === 'string' ? decoded : undefined;
  } catch {
    return undefined;
  }
}

function backslashesBefore(text: string, end: number): number {
  let n = 0;
  while (end - n - 1 >= 0 && text[end - n - 1] === '\\') n++;
  return n;
}

/** A compact argument kept encoded because it nests too deep: call `call` (0-based), argument `key`, its depth. */
export interface DeepArgument {
  call: number;
  key: string;
  depth: number;
}

/**
 * Normalise a record's `tool_calls`. Compact args are decoded; full args are kept as recorded (the reader already
 * bounded their nesting with the line's). `tooDeep` hears of each compact argument kept encoded for its depth.
 */
export function readToolCalls(raw: unknown, from: 'compact' | 'full', tooDeep?: (arg: DeepArgument) => void): ToolCall[] {
  if (!Array.isArray(raw)) return [];
  const calls: ToolCall[] = [];
  for (const item of raw) {
    if (typeof item !== 'object' || item === null) continue;
    const rec = item as Record<string, unknown>;
    // JSON.stringify, not String(): a parsed object like {"toString":1} makes String() throw.
    const name = typeof rec.name === 'string' ? rec.name : (JSON.stringify(rec.name ?? '') ?? '');
    const rawArgs =
      typeof rec.args === 'object' && rec.args !== null && !Array.isArray(rec.args)
        ? (rec.args as Record<string, unknown>)
        : {};
    const args: Record<string, unknown> = {};
    const truncatedArgs: string[] = [];
    for (const [key, value] of Object.entries(rawArgs)) {
      if (from === 'full') {
        args[key] = value;
        continue;
      }
      const decoded = decodeCompactValue(value);
      if (decoded.depth !== undefined) tooDeep?.({ call: calls.length, key, depth: decoded.depth });
      args[key] = decoded.value;
      if (decoded.cut) truncatedArgs.push(key);
    }
    calls.push({ name, args, truncatedArgs });
  }
  return calls;
}
