/**
 * Every protobuf field number this archive reads from a conversation database, with the evidence for what it
 * means. The columns are protobuf without a schema; each number was identified on the eight real databases of
 * `../shared/real-db/` by joining them to the transcripts of the same conversations (README there, sections 2–3).
 * Numbers are written `a.b.c` (field c inside b inside a). Nothing outside this module names a field number.
 */
import { MAX_NESTING, nestingDepth } from '../nesting.ts';
import type { ModelCall, PromptBreakdown, StepDbFacts, ToolCall } from '../types.ts';
import { MalformedBlob, ProtoMessage } from './wire.ts';

/**
 * `steps.step_type` (= `step_payload` 1) → the transcripts' `type` for the same `step_index` (README §2.2: every
 * type here was seen with a transcript line of this name, except CHECKPOINT, which no transcript holds).
 */
export const STEP_TYPES: Readonly<Record<number, string>> = {
  5: 'CODE_ACTION',
  7: 'GREP_SEARCH',
  8: 'VIEW_FILE',
  9: 'LIST_DIRECTORY',
  14: 'USER_INPUT',
  15: 'PLANNER_RESPONSE',
  17: 'ERROR_MESSAGE',
  21: 'RUN_COMMAND',
  23: 'CHECKPOINT',
  33: 'SEARCH_WEB',
  98: 'CONVERSATION_HISTORY',
  101: 'SYSTEM_MESSAGE',
  132: 'GENERIC',
};

/**
 * `steps.status` (= `step_payload` 4) → a word. README §2.2: 3 is DONE in the transcripts; 7 ERROR; 6 "context
 * canceled" in `error_details`; 1 created but not started, 2 running, 8 a reply still streaming, 9 waiting for the
 * user's permission (seen between 1 and 2 in 102 histories). The transcripts' own words are used where they have one.
 */
export const STATUSES: Readonly<Record<number, string>> = {
  1: 'PENDING',
  2: 'RUNNING',
  3: 'DONE',
  6: 'CANCELLED',
  7: 'ERROR',
  8: 'GENERATING',
  9: 'WAITING',
};

/** `metadata` 3 → the transcripts' `source` (README §2.2: all 1,254 joined lines agree). */
export const SOURCES: Readonly<Record<number, string>> = { 2: 'MODEL', 4: 'USER_EXPLICIT', 5: 'SYSTEM' };

export function stepTypeName(n: number): string {
  return STEP_TYPES[n] ?? `STEP_TYPE_${n}`;
}
export function statusName(n: number): string {
  return STATUSES[n] ?? `STATUS_${n}`;
}

/** A step as the database holds it, decoded. */
export interface DbStep {
  index: number;
  typeCode: number;
  type: string;
  source?: string;
  /** The step's own text: what the user typed, the reply's visible text, the system message, the error. */
  content?: string;
  thinking?: string;
  /** A reply's tool calls (`step_payload` 20.7), or the call that made a tool step (`metadata` 4). */
  toolCalls: ToolCall[];
  facts: StepDbFacts;
}

/** Timestamp / Duration `{1: seconds, 2: nanos}` (README §2). */
function epochMs(msg: ProtoMessage | undefined): number | undefined {
  if (!msg) return undefined;
  const seconds = msg.int(1) ?? 0;
  const nanos = msg.int(2) ?? 0;
  if (seconds === 0 && nanos === 0) return undefined;
  return seconds * 1000 + nanos / 1e6;
}
function iso(msg: ProtoMessage | undefined): string | undefined {
  const ms = epochMs(msg);
  if (ms === undefined) return undefined;
  const d = new Date(Math.floor(ms));
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
function durationMs(msg: ProtoMessage | undefined): number | undefined {
  if (!msg) return undefined;
  const ms = (msg.int(1) ?? 0) * 1000 + (msg.int(2) ?? 0) / 1e6;
  return Math.round(ms);
}

/** A tool call `{1 id, 2 name, 3 arguments JSON}` (`step_payload` 20.7 and `metadata` 4; README §2.2). */
function toolCall(msg: ProtoMessage): ToolCall | undefined {
  const name = msg.string(2);
  if (name === undefined) return undefined;
  const json = msg.string(3);
  let args: Record<string, unknown> = {};
  if (json !== undefined && json !== '') {
    try {
      const parsed: unknown = JSON.parse(json);
      // Nested past what the archive keeps as structure (nesting.ts): the arguments as the text the database holds.
      if (nestingDepth(parsed) > MAX_NESTING) args = { arguments: json };
      else args = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { arguments: parsed };
    } catch {
      args = { arguments: json };
    }
  }
  return { name, args, truncatedArgs: [] };
}

/**
 * One `steps` row. `metadata` is byte-identical to `step_payload` 5 (README §2.2), so the payload alone is read,
 * with the row's columns for index, type and status (the same numbers as payload 1 and 4).
 */
export function decodeStep(row: { idx: number; step_type: number; status: number; step_payload: Uint8Array | null; metadata: Uint8Array | null }): DbStep {
  const payload = row.step_payload ? ProtoMessage.decode(row.step_payload) : undefined;
  // metadata (= payload 5)
  const meta = payload?.message(5) ?? (row.metadata ? ProtoMessage.decode(row.metadata) : undefined);
  const type = stepTypeName(row.step_type);
  const facts: StepDbFacts = {
    status: statusName(row.status),
    statusCode: row.status,
    // metadata 26 = {repeated 1 {1 status, 2 time}}: 8,3 for replies, 1,2,3 / 1,9,2,3 for tool steps (README §2.2)
    statusHistory: (meta?.message(26)?.messages(1) ?? []).map((h) => {
      const entry: { status: string; at?: string } = { status: statusName(h.int(1) ?? 0) };
      const at = iso(h.message(2));
      if (at) entry.at = at;
      return entry;
    }),
  };
  if (meta) {
    // metadata 1 created; 6 first output; 8 finished (for a reply: request start, + time to first token, + streaming)
    const created = iso(meta.message(1));
    const first = iso(meta.message(6));
    const finished = iso(meta.message(8));
    if (created) facts.createdAt = created;
    if (first) facts.firstOutputAt = first;
    if (finished) facts.finishedAt = finished;
    // metadata 12: the agent run (= executor_metadata 9 = gen_metadata 4)
    const execution = meta.string(12);
    if (execution) facts.executionId = execution;
  }
  const step: DbStep = { index: row.idx, typeCode: row.step_type, type, toolCalls: [], facts };
  const source = meta?.int(3);
  if (source !== undefined) step.source = SOURCES[source] ?? `SOURCE_${source}`;
  // metadata 4: the tool call that made a tool step
  const madeBy = meta?.message(4);
  if (madeBy && row.step_type !== 15) {
    const call = toolCall(madeBy);
    if (call) step.toolCalls.push(call);
  }
  if (payload) readTypeSpecific(step, payload);
  return step;
}

/** The type-specific payload field (README §2.2, "payload field" column). */
function readTypeSpecific(step: DbStep, payload: ProtoMessage): void {
  switch (step.typeCode) {
    case 14: {
      // USER_INPUT 19.2: the typed text (inside the transcript's <USER_REQUEST> in all 56 a transcript has)
      const text = payload.message(19)?.string(2);
      if (text !== undefined) step.content = text;
      break;
    }
    case 15: {
      // PLANNER_RESPONSE 20.1 visible text (= transcript content 302/302), 20.3 thinking (302/302), 20.7 tool calls
      const reply = payload.message(20);
      if (!reply) break;
      const text = reply.string(1);
      const thinking = reply.string(3);
      if (text) step.content = text;
      if (thinking) step.thinking = thinking;
      step.toolCalls = reply.messages(7).map(toolCall).filter((c): c is ToolCall => c !== undefined);
      break;
    }
    case 17: {
      // ERROR_MESSAGE 24.3 {1 message shown to the user, 2 error, 3 error with tags and stack}
      const error = payload.message(24)?.message(3);
      const shown = error?.string(1);
      const detail = error?.string(2);
      const text = [shown, detail].filter((t) => t !== undefined && t !== '').join('\n');
      if (text) step.content = text;
      break;
    }
    case 21: {
      // RUN_COMMAND 28.21.1 combined output (longer than the transcript's in 17 of 24 lines written while it ran)
      const output = payload.message(28)?.message(21)?.string(1);
      if (output) step.facts.fullerText = output;
      break;
    }
    case 23: {
      // CHECKPOINT 30.4 title and one-line description (when set), 30.19 the first user request
      const cp = payload.message(30);
      const title = cp?.string(4);
      const request = cp?.string(19);
      const text = [title, request ? `First request: ${request}` : undefined].filter((t) => t !== undefined && t !== '').join('\n\n');
      if (text) step.content = text;
      break;
    }
    case 101: {
      // SYSTEM_MESSAGE 114.1: the message as the transcript wraps it (`[Message] timestamp=… sender=…`)
      const text = payload.message(114)?.string(1);
      if (text) step.content = text;
      break;
    }
    default:
      break;
  }
}

/** A `gen_metadata` row: one model call (README §2.3). */
export function decodeCall(row: { idx: number; data: Uint8Array }): ModelCall {
  const data = ProtoMessage.decode(row.data);
  const call = data.message(1);
  // 1.4 usage: 2 uncached input, 3 output, 5 cache-read input (absent = 0), 9 thinking, 10 visible
  const usage = call?.message(4);
  const out: ModelCall = {
    row: row.idx,
    // 2: packed varints, the step indices this call produced
    stepIndices: data.packedInts(2),
    // 5: present (empty) on the rows whose call failed; those rows have no usage (README §2.3)
    hasUsage: usage !== undefined && !data.has(5),
    input: usage?.int(2) ?? 0,
    cacheRead: usage?.int(5) ?? 0,
    output: usage?.int(3) ?? 0,
    thinking: usage?.int(9) ?? 0,
    visible: usage?.int(10) ?? 0,
    // 1.17: attempts {2 usage, 3 error text}; a failed attempt keeps its error
    errors: (call?.messages(17) ?? []).map((a) => a.string(3)).filter((e): e is string => e !== undefined && e !== ''),
  };
  const execution = data.string(4);
  if (execution) out.executionId = execution;
  if (!call) return out;
  const name = call.string(21); // 1.21 display name (absent on hoafd's rows)
  const id = call.string(19); // 1.19 response model id
  const modelEnum = call.int(3) ?? usage?.int(1); // 1.3 model enum (= 1.4.1)
  if (name) out.modelName = name;
  if (id) out.modelId = id;
  if (modelEnum !== undefined) out.modelEnum = modelEnum;
  const requestAt = iso(call.message(9)?.message(4)); // 1.9.4 request start
  if (requestAt) out.requestAt = requestAt;
  const ttft = durationMs(call.message(11)); // 1.11 time to first token
  const streaming = durationMs(call.message(12)); // 1.12 streaming time
  if (ttft !== undefined) out.timeToFirstTokenMs = ttft;
  if (streaming !== undefined) out.streamingMs = streaming;
  return out;
}

/**
 * The prompt breakdown of the row holding the whole prompt (1.1 present: the last row, README §2.3): the token
 * budget 1.9.10 {1 total, 3 {repeated 1 {1 section, 4 tokens}}}, the tool definitions 1.8 and the messages 1.2,
 * counted. Its text is never kept.
 */
export function decodePrompt(data: Uint8Array): PromptBreakdown | undefined {
  const call = ProtoMessage.decode(data).message(1);
  if (!call?.has(1)) return undefined;
  const budget = call.message(9)?.message(10);
  const breakdown: PromptBreakdown = {
    sections: (budget?.message(3)?.messages(1) ?? []).map((s) => ({ section: s.string(1) ?? '', tokens: s.int(4) ?? 0 })),
    tools: call.bytesAll(8).length,
    messages: call.bytesAll(2).length,
    systemPromptChars: call.string(1)?.length ?? 0,
  };
  const total = budget?.int(1);
  if (total !== undefined) breakdown.totalTokens = total;
  return breakdown;
}

/** `agyhub_summaries_proto.pb`: repeated 1 {1 conversation uuid, 2 summary {1 title}} (README §4). */
export function decodeSummaryTitles(bytes: Uint8Array): Map<string, string> {
  const titles = new Map<string, string>();
  for (const entry of ProtoMessage.decode(bytes).messages(1)) {
    const id = entry.string(1);
    const title = entry.message(2)?.string(1);
    if (id && title) titles.set(id.toLowerCase(), title);
  }
  return titles;
}

export { MalformedBlob };
